import ActorCounter
import ArchitectureCommands

// The project's commands, with the actor counter next to the five architectures and the
// baseline. A counter alone is a valid contestant: conformance checks the counter, stress
// probes it, compare and measure run every workload it can (`counter.increments`).
ArchitectureCommand.main(adding: [
  Architecture(name: "actor-counter", apps: [.init(Implementation<CounterApp>.actor)])
])
