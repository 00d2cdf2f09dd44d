import Testing
import Workloads

@Test func theMedianOfAnOddCountIsTheMiddleValue() {
  let summary = Summary([5, 1, 4, 2, 3])
  #expect(summary.median == 3)
  #expect(summary.samples == 5)
}

@Test func theMedianOfAnEvenCountIsTheMeanOfTheMiddleTwo() {
  #expect(Summary([4, 1, 3, 2]).median == 2.5)
}

@Test func fifteenSamplesGiveTheFourthToTwelfthAsTheInterval() {
  // Ranks n/2 ± 1.96·√n/2 for n = 15: 3.7 and 12.3, so the 4th and the 12th value.
  let summary = Summary((1...15).map(Double.init).reversed())
  #expect(summary.median == 8)
  #expect(summary.low == 4)
  #expect(summary.high == 12)
}

@Test func oneSampleIsItsOwnInterval() {
  let summary = Summary([7])
  #expect(summary.low == 7 && summary.median == 7 && summary.high == 7)
}

@Test func reportsShowRatiosToTheBaselineAndTheBareReducer() {
  let comparison = Comparison(
    setup: .init(samples: 3, isQuick: true, machine: "test machine", date: "2026-11-21"),
    workloads: [
      .init(
        name: "dispatch", operation: "intent", operations: 10,
        results: [
          .init(contestant: "baseline", nanoseconds: Summary([40, 40, 40])),
          .init(contestant: "mine", nanoseconds: Summary([20, 20, 20])),
          .init(contestant: "bare", nanoseconds: Summary([2, 2, 2])),
          .init(contestant: "broken", notTimed: "fails the counter conformance suite"),
        ])
    ])
  let workload = comparison.workloads[0]
  #expect(comparison.ratio(workload, "mine", to: "baseline") == 0.5)
  #expect(comparison.ratio(workload, "mine", to: "bare") == 10)
  #expect(comparison.ratio(workload, "broken", to: "baseline") == nil)
  let markdown = comparison.markdown()
  #expect(markdown.contains("| mine | 20 | 20–20 | 0.50× | 10× | — |"))
  #expect(markdown.contains("| broken | not timed: fails the counter conformance suite |"))
  let svg = comparison.svg(workload)
  #expect(svg.hasPrefix("<svg"))
  #expect(svg.components(separatedBy: "<rect x=").count - 1 == 3)
}
