import ArchitectureApps
import Synchronization

/// A contacts service that answers from built-in sample data on the real clock, so loading, a
/// dismissed load and a failure can be seen in `arch run contacts` (SPEC §8, live sample).
///
/// Every answer comes after ``delay`` (cancellable: a popped screen's load ends at once). The
/// details of one contact, ``failingContactID``, always fail; `create` fails for a name that
/// contains `!`, and otherwise gives ids from 100 up.
public final class SampleContactsService: ContactsService {
  /// How long each answer takes.
  public let delay: Duration
  private let nextID = Atomic(100)

  /// The contacts the live sample starts with.
  public static let contacts: [Contact] = [
    Contact(id: 1, name: "Ada Lovelace"), Contact(id: 2, name: "Alan Turing"),
    Contact(id: 3, name: "Grace Hopper"), Contact(id: 4, name: "Edsger Dijkstra"),
    Contact(id: 5, name: "Barbara Liskov"), Contact(id: 6, name: "Donald Knuth"),
  ]

  /// The contact whose details never load.
  public static let failingContactID = 4

  public init(delay: Duration = .milliseconds(300)) { self.delay = delay }

  public func create(name: String) async throws -> Int {
    try await Task.sleep(for: delay)
    guard !name.contains("!") else { throw SampleServiceError.rejected(name) }
    return nextID.add(1, ordering: .relaxed).oldValue
  }

  public func details(id: Int) async throws -> String {
    try await Task.sleep(for: delay)
    guard id != Self.failingContactID else { throw SampleServiceError.unavailable(id) }
    let known: [Int: String] = [
      1: "Wrote the first published program, for the Analytical Engine (1843).",
      2: "Defined computability with the Turing machine (1936).",
      3: "Built the first compiler, A-0 (1952), and led COBOL's design.",
      5: "Gave the substitution principle its name (1987).",
      6: "Author of The Art of Computer Programming; made TeX.",
    ]
    return known[id] ?? "Added during this run (#\(id))."
  }
}

/// Why the sample service failed.
public enum SampleServiceError: Error, CustomStringConvertible {
  case rejected(String)
  case unavailable(Int)

  public var description: String {
    switch self {
    case .rejected(let name): "the service does not accept the name \(name)"
    case .unavailable(let id): "the details of #\(id) are unavailable"
    }
  }
}
