import ActorCounter
import ArchitectureSpec
import ArchitectureSpecTesting
import Baseline
import Testing

@Suite("The actor counter conforms")
struct ActorCounterTests {
  @Test(arguments: CounterApp.scenarios.map(\.name))
  func scenario(_ name: String) async throws {
    let scenario = try #require(CounterApp.scenarios.first { $0.name == name })
    await expectConformance(.actor, scenario: scenario, reference: .baseline)
  }

  @Test func randomProgramsMatchBaseline() async {
    await expectSameTraces(.actor, reference: .baseline, programs: 50, seed: 7)
  }
}
