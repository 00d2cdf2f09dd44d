// A package that runs the commands with an architecture of its own names it with these:
// `Architecture` (Samples), `Contestant` and `TallySubject` (Workloads), and the kit.
@_exported import ArchitectureSpec
@_exported import Samples
@_exported import Workloads
