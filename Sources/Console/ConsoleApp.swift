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

/// An app of the spec as a terminal screen: which key sends which intent, and how a view looks.
///
/// The screen is a function of the app's view (plus ``Input``, what the terminal itself tracks),
/// so every architecture that produces the same views shows the same screens. Escape and Ctrl-C
/// always quit; a ``ConsoleSession`` handles them before asking the app.
public protocol ConsoleApp: SpecApp {
  /// What the terminal keeps beyond the view: the weather query being typed, the highlighted row.
  associatedtype Input: Sendable

  /// The terminal's state before the first key.
  static var initialInput: Input { get }

  /// What `key` does, given the view now; may change `input`.
  static func action(for key: Key, view: View, input: inout Input) -> KeyAction<Intent>

  /// The screen for `view`: one string per line, no escape codes.
  static func screen(_ view: View, input: Input) -> [String]

  /// Whether sending `intent` while `view` shows starts a timer (the stopwatch's ticks, the
  /// weather search's debounce). A script's waits are measured from the last such intent, so
  /// `s{1s}` shows ten ticks however long earlier keys took.
  static func startsTimer(_ intent: Intent, view: View) -> Bool
}

extension ConsoleApp {
  public static func startsTimer(_ intent: Intent, view: View) -> Bool { false }
}

/// The keys line: `keys: + increment   - decrement   q quit`.
func keysLine(_ keys: [(key: String, meaning: String)]) -> String {
  "keys: " + keys.map { "\($0.key) \($0.meaning)" }.joined(separator: "   ")
}
