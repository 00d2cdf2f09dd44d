import Foundation

extension Comparison {
  /// Runs `workloads` for `contestants`, interleaved, and summarizes the time per operation.
  ///
  /// Each (workload, contestant) pair first runs once untimed, which checks its result; a pair
  /// whose check fails, or that `excluded` names, is reported and never timed. Then every sample
  /// round runs every pair once, rotating the contestants' order so none always goes first.
  ///
  /// - Parameters:
  ///   - operations: How many operations a sample of a workload performs.
  ///   - excluded: Why a contestant may not be timed for an app (the conformance gate), keyed by
  ///     contestant name and then app name.
  ///   - progress: Called with a short line as each pair finishes its warm-up.
  public static func run(
    workloads: [Workload], contestants: [Contestant], samples: Int,
    operations: @Sendable (Workload) -> Int, excluded: [String: [String: String]] = [:],
    setup: Setup, progress: @Sendable (String) -> Void = { _ in }
  ) async -> Comparison {
    let clock = ContinuousClock()
    var results: [[ContestantResult]] = []
    var timings: [[[Double]]] = []
    for workload in workloads {
      var row: [ContestantResult] = []
      for contestant in contestants {
        var result = ContestantResult(contestant: contestant.name)
        if let reason = excluded[contestant.name]?[workload.app] {
          result.notTimed = reason
        } else if let trial = await workload.prepare(contestant, operations(workload)) {
          do {
            let outcome = try await trial()
            result.notificationsPerOperation = outcome.notificationsPerOperation
            result.notificationsByKind = outcome.byKind
          } catch {
            result.failure = error.description
          }
        } else {
          continue  // The contestant has nothing this workload can run.
        }
        progress(
          "\(workload.name) · \(contestant.name): "
            + (result.notTimed ?? result.failure.map { "wrong result: \($0)" } ?? "checked"))
        row.append(result)
      }
      results.append(row)
      timings.append(Array(repeating: [], count: row.count))
    }

    for round in 0..<samples {
      for (workloadIndex, workload) in workloads.enumerated() {
        let count = operations(workload)
        let taking = results[workloadIndex]
        for offset in taking.indices {
          let index = (offset + round) % taking.count
          guard taking[index].isTimed,
            let contestant = contestants.first(where: { $0.name == taking[index].contestant }),
            let trial = await workload.prepare(contestant, count)
          else { continue }
          let start = clock.now
          await trial.run()
          let elapsed = start.duration(to: clock.now)
          do {
            _ = try await trial.finish()
            let nanoseconds =
              Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds)
              / 1e9
            timings[workloadIndex][index].append(nanoseconds / Double(max(count, 1)))
          } catch {
            results[workloadIndex][index].failure = error.description
          }
        }
      }
    }

    let workloadResults = workloads.enumerated().map { workloadIndex, workload in
      var row = results[workloadIndex]
      for index in row.indices where row[index].isTimed {
        let values = timings[workloadIndex][index]
        if !values.isEmpty { row[index].nanoseconds = Summary(values) }
      }
      return WorkloadResults(
        name: workload.name, operation: workload.operation, operations: operations(workload),
        results: row)
    }
    return Comparison(setup: setup, workloads: workloadResults)
  }
}
