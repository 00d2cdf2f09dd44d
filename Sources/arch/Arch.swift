import ArchitectureSpec
import Foundation
import Samples

/// `arch`: the project's command line.
@main
enum Arch {
  static let usage = """
    USAGE: arch <command> [options]

    COMMANDS:
      conformance     Run every scenario and random program; print a matrix, architecture × app.
                      Exits 1 on any failure.
      trace APP       Print one run's trace as JSON lines.
      list            List the architectures, apps and scenarios.

    OPTIONS (conformance):
      --app A             counter, stopwatch or weather (default: all)
      --architecture X    \(Catalog.architectures.map(\.name).joined(separator: ", ")) (default: all)
      --seed N            seed of the first random program (default: 1)
      --programs N        random programs per app and architecture (default: 200)
      --format F          text or json (default: text)

    OPTIONS (trace):
      --architecture X    the architecture to run (required)
      --scenario NAME     the scenario to run (required; see `arch list`)

    """

  static func main() async {
    var arguments = Arguments(CommandLine.arguments.dropFirst())
    do {
      switch arguments.command {
      case "conformance": exit(try await ConformanceCommand(&arguments).run())
      case "trace": exit(try await TraceCommand(&arguments).run())
      case "list":
        try arguments.finish()
        ListCommand.run()
      case "help", "--help", "-h": print(usage, terminator: "")
      case nil: throw UsageError("missing command")
      case let other?: throw UsageError("unknown command '\(other)'")
      }
    } catch let error as UsageError {
      FileHandle.standardError.write(Data("error: \(error.message)\n\n\(usage)".utf8))
      exit(2)
    } catch {
      FileHandle.standardError.write(Data("error: \(error)\n".utf8))
      exit(1)
    }
  }
}

/// A mistake in the command line; reported with the usage text and exit status 2.
struct UsageError: Error {
  var message: String
  init(_ message: String) { self.message = message }
}

/// The command line, consumed option by option.
struct Arguments {
  private var rest: [String]
  let command: String?

  init(_ arguments: some Sequence<String>) {
    rest = Array(arguments)
    command = rest.isEmpty ? nil : rest.removeFirst()
  }

  /// Removes and returns the value of `--name`, if present.
  mutating func option(_ name: String) throws -> String? {
    guard let index = rest.firstIndex(of: name) else { return nil }
    guard index + 1 < rest.count, !rest[index + 1].hasPrefix("--") else {
      throw UsageError("\(name) needs a value")
    }
    defer { rest.removeSubrange(index...index + 1) }
    return rest[index + 1]
  }

  /// Removes and returns the value of `--name`, which must be one of `allowed`.
  mutating func option(_ name: String, oneOf allowed: [String]) throws -> String? {
    guard let value = try option(name) else { return nil }
    guard allowed.contains(value) else {
      throw UsageError("\(name) must be one of \(allowed.joined(separator: ", ")); got '\(value)'")
    }
    return value
  }

  /// Removes and returns the value of `--name` as a number.
  mutating func number<N: FixedWidthInteger>(_ name: String, as type: N.Type = N.self) throws -> N?
  {
    guard let value = try option(name) else { return nil }
    guard let number = N(value), number >= 0 else {
      throw UsageError("\(name) must be a non-negative whole number; got '\(value)'")
    }
    return number
  }

  /// Removes and returns the next positional argument.
  mutating func positional(_ name: String) throws -> String {
    guard let index = rest.firstIndex(where: { !$0.hasPrefix("--") }) else {
      throw UsageError("missing \(name)")
    }
    return rest.remove(at: index)
  }

  /// Fails on anything left over.
  func finish() throws {
    if let extra = rest.first { throw UsageError("unexpected argument '\(extra)'") }
  }
}
