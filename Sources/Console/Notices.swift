import ArchitectureApps
import Kernel

/// The lines under an app's screen: the last log message and, for each live service (storage,
/// weather), the last problem it reported (why a save or a search failed), cleared when that
/// service's next request works. One service's success never clears another's problem.
public final class Notices: Sendable {
  private struct State {
    var log: String?
    /// Each source's problem, in the order the sources first reported one.
    var problems: [(source: String, message: String)] = []
    var onChange: (@Sendable () -> Void)?
  }

  private let state = Lock(State())

  public init() {}

  /// Records a log message.
  public func log(_ message: String) {
    update { $0.log = message }
  }

  /// Records `source`'s problem, or clears it with `nil`.
  public func problem(_ message: String?, from source: String = "") {
    update { state in
      let index = state.problems.firstIndex { $0.source == source }
      switch (index, message) {
      case (let index?, let message?): state.problems[index].message = message
      case (let index?, nil): state.problems.remove(at: index)
      case (nil, let message?): state.problems.append((source, message))
      case (nil, nil): break
      }
    }
  }

  /// The notice lines: `log: …`, then `! …` for each line of each source's problem, each only
  /// when there is one. Outside text in them is made safe and cut (SPEC L1): a notice line never
  /// holds a control character nor more than ``ScreenText/noticeLimit`` characters of text.
  public var lines: [String] {
    state.withLock { state in
      (state.log.map { ["log: " + ScreenText.notice($0)] } ?? [])
        + state.problems.flatMap { problem in
          problem.message.split(separator: "\n").map { "! " + ScreenText.notice($0) }
        }
    }
  }

  /// Calls `action` after every change (the interactive screen redraws).
  func onChange(_ action: (@Sendable () -> Void)?) {
    state.withLock { $0.onChange = action }
  }

  private func update(_ change: (inout State) -> Void) {
    let action = state.withLock { state -> (@Sendable () -> Void)? in
      change(&state)
      return state.onChange
    }
    action?()
  }
}

/// An `AppLog` that shows its last message under the screen.
public struct NoticeLog: AppLog {
  public let notices: Notices

  public init(_ notices: Notices) {
    self.notices = notices
  }

  public func log(_ message: String) {
    notices.log(message)
  }
}
