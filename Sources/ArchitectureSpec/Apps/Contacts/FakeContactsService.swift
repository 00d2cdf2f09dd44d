import Kernel

/// A contacts service whose `create` and `details` calls stay pending until the scenario, or
/// the end of its step, answers them (SPEC §8 "Scenario timing").
///
/// Unless calls are held, the end of a step answers the oldest pending call from the setup,
/// lets the runtime process that answer to idle, then the next: each answer is a message and a
/// view of its own. A scenario can also hold every call and answer a particular one — the
/// oldest (or newest) `details` of a contact, the oldest `create` — with a value or a failure.
public final class FakeContactsService: ContactsService {
  /// How a call ends.
  public enum Answer: Sendable, Hashable, CustomStringConvertible {
    /// `create` returns this id; `details` returns this text.
    case id(Int)
    case text(String)
    /// The call throws.
    case failure

    public var description: String {
      switch self {
      case .id(let id): "id \(id)"
      case .text(let text): quoted(text)
      case .failure: "an error"
      }
    }
  }

  private struct State {
    var holds: Bool
    var nextID: Int
  }

  private let calls: PendingCalls<Answer>
  private let state: Lock<State>
  private let failingDetails: Set<Int>
  private let failingCreates: Set<String>

  public init(
    recorder: CallRecorder, honorsCancellation: Bool = true, holdsCalls: Bool = false,
    firstNewID: Int = 100, failingDetails: Set<Int> = [], failingCreates: Set<String> = []
  ) {
    calls = PendingCalls(recorder: recorder, honorsCancellation: honorsCancellation)
    state = Lock(State(holds: holdsCalls, nextID: firstNewID))
    self.failingDetails = failingDetails
    self.failingCreates = failingCreates
  }

  public func create(name: String) async throws -> Int {
    guard case .id(let id) = try await calls.wait(for: .create(name)) else {
      throw FakeFailure("the service could not create \(name)")
    }
    return id
  }

  public func details(id: Int) async throws -> String {
    guard case .text(let text) = try await calls.wait(for: .details(id)) else {
      throw FakeFailure("the service has no details of \(id)")
    }
    return text
  }

  /// The details the service answers for a contact unless told otherwise.
  public static func details(of id: Int) -> String { "Details of #\(id)" }

  /// Whether calls stay pending until the scenario answers them.
  public func holdCalls(_ holds: Bool) { state.withLock { $0.holds = holds } }

  /// Answers the oldest pending `details` of contact `id` (the newest, if `newest`).
  ///
  /// - Returns: Whether one was pending.
  @discardableResult
  public func answerDetails(of id: Int, with answer: Answer, newest: Bool = false) -> Bool {
    let matches: (EnvironmentCall) -> Bool = { $0 == .details(id) }
    if newest {
      let count = calls.pending.filter(matches).count
      guard count > 0 else { return false }
      var seen = 0
      return calls.answer(.success(answer)) { call in
        guard matches(call) else { return false }
        seen += 1
        return seen == count
      } != nil
    }
    return calls.answer(.success(answer), where: matches) != nil
  }

  /// Answers the oldest pending `create`.
  @discardableResult
  public func answerCreate(with answer: Answer) -> Bool {
    calls.answer(.success(answer)) { if case .create = $0 { true } else { false } } != nil
  }

  /// The calls still waiting for an answer, oldest first.
  public var pending: [EnvironmentCall] { calls.pending }

  /// Unless calls are held, answers the oldest pending call as the setup says: `create` with a
  /// new id (or a failure for a name the setup fails), `details` with ``details(of:)`` (or a
  /// failure for a contact the setup fails).
  func answerOldestDue() -> Bool {
    guard !state.withLock({ $0.holds }), let oldest = calls.oldest else { return false }
    let answer: Answer
    switch oldest {
    case .create(let name):
      if failingCreates.contains(name) {
        answer = .failure
      } else {
        answer = .id(
          state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
          })
      }
    case .details(let id):
      answer = failingDetails.contains(id) ? .failure : .text(Self.details(of: id))
    default:
      return false
    }
    return calls.answer(.success(answer)) { $0 == oldest } != nil
  }

  func abandonPendingCalls() { calls.abandonAll() }
}
