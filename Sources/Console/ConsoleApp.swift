import ArchitectureApps

/// What a key does in an app.
public enum KeyAction<Intent: Sendable>: Sendable {
  /// Send this intent to the runtime.
  case send(Intent)
  /// Nothing (the key means nothing here, or only changed what the terminal shows).
  case none
  /// End the app.
  case quit
}

extension KeyAction: Equatable where Intent: Equatable {}

/// An app of the spec as a terminal screen: which key sends which intent, and how a view looks.
///
/// The screen is a function of the app's view (plus ``Input``, what the terminal itself tracks),
/// so every architecture that produces the same views shows the same screens. Ctrl-C always
/// quits, and so does Escape unless the app uses it (``escapeQuits``); a ``ConsoleSession``
/// handles them before asking the app.
public protocol ConsoleApp: SpecApp {
  /// What the terminal keeps beyond the view: the weather query being typed, the highlighted row.
  associatedtype Input: Sendable

  /// The terminal's state before the first key.
  static var initialInput: Input { get }

  /// What `key` does, given the view now; may change `input`.
  static func action(for key: Key, view: View, input: inout Input) -> KeyAction<Intent>

  /// The screen for `view`: one string per line, no escape codes.
  static func screen(_ view: View, input: Input) -> [String]

  /// The children the screen for `view` shows (the visible rows of a list); the session
  /// observes each through the runtime's scope (R11) and hands their views to
  /// ``screen(_:children:input:)``.
  static func shownChildren(_ view: View, input: Input) -> [Child]

  /// The screen for `view` and the views of the children it shows.
  static func screen(_ view: View, children: [Child: ChildView], input: Input) -> [String]

  /// What `key` does, given the view and the shown children's views now; may change `input`.
  static func action(
    for key: Key, view: View, children: [Child: ChildView], input: inout Input
  ) -> KeyAction<Intent>

  /// Whether sending `intent` while `view` shows starts a timer (the stopwatch's ticks, the
  /// weather search's debounce). A script's waits are measured from the last such intent, so
  /// `s{1s}` shows ten ticks however long earlier keys took.
  static func startsTimer(_ intent: Intent, view: View) -> Bool

  /// Whether Escape quits; `false` hands it to the app (contacts: Escape goes back).
  static var escapeQuits: Bool { get }
}

extension ConsoleApp {
  public static var escapeQuits: Bool { true }

  public static func startsTimer(_ intent: Intent, view: View) -> Bool { false }

  public static func shownChildren(_ view: View, input: Input) -> [Child] { [] }

  public static func screen(_ view: View, children: [Child: ChildView], input: Input) -> [String] {
    screen(view, input: input)
  }

  public static func action(
    for key: Key, view: View, children: [Child: ChildView], input: inout Input
  ) -> KeyAction<Intent> {
    action(for: key, view: view, input: &input)
  }
}

/// The keys line: `keys: + increment   - decrement   q quit`.
func keysLine(_ keys: [(key: String, meaning: String)]) -> String {
  "keys: " + keys.map { "\($0.key) \($0.meaning)" }.joined(separator: "   ")
}
