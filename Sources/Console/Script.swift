/// A `--keys` script: keys to press and waits, in order.
///
/// Every character is a key, except for two notations:
/// - `<name>` is a named key: `<enter>`, `<tab>`, `<bs>`, `<up>`, `<down>`, `<esc>`, `<home>`,
///   `<space>`,
///   `<ctrl-r>` (any letter), and `<lt>` / `<lbrace>` for a literal `<` / `{`;
/// - `{duration}` waits that long on the real clock: `{300ms}`, `{1s}`, `{1.5s}`.
///
/// ```swift
/// let script = try Script("s{1s}l<enter>")
/// // [.key(.character("s")), .wait(.seconds(1)), .key(.character("l")), .key(.enter)]
/// ```
public struct Script: Hashable, Sendable {
  /// One step of a script.
  public enum Step: Hashable, Sendable, CustomStringConvertible {
    case key(Key)
    case wait(Duration)

    public var description: String {
      switch self {
      case .key(let key): key.description
      case .wait(let duration): "{\(Script.format(duration))}"
      }
    }
  }

  /// The steps, in order.
  public var steps: [Step]

  /// Parses `text`.
  ///
  /// - Throws: ``ScriptError`` naming the position and what is wrong.
  public init(_ text: String) throws(ScriptError) {
    var steps: [Step] = []
    var rest = Substring(text)
    while let first = rest.first {
      let offset = text.distance(from: text.startIndex, to: rest.startIndex)
      switch first {
      case "<":
        guard let close = rest.firstIndex(of: ">") else {
          throw ScriptError(offset: offset, message: "'<' without a closing '>' (write <lt>)")
        }
        let name = rest[rest.index(after: rest.startIndex)..<close].lowercased()
        guard let key = Self.namedKey(name) else {
          throw ScriptError(
            offset: offset,
            message:
              "unknown key <\(name)>; known: <enter> <tab> <bs> <up> <down> <esc> <home> <space> "
              + "<ctrl-LETTER> <lt> <lbrace>")
        }
        steps.append(.key(key))
        rest = rest[rest.index(after: close)...]
      case "{":
        guard let close = rest.firstIndex(of: "}") else {
          throw ScriptError(offset: offset, message: "'{' without a closing '}' (write <lbrace>)")
        }
        let text = String(rest[rest.index(after: rest.startIndex)..<close])
        guard let duration = Self.duration(text) else {
          throw ScriptError(
            offset: offset, message: "'{\(text)}' is not a wait; write {300ms} or {1.5s}")
        }
        steps.append(.wait(duration))
        rest = rest[rest.index(after: close)...]
      default:
        steps.append(.key(Self.key(for: first)))
        rest = rest.dropFirst()
      }
    }
    self.steps = steps
  }

  private static func key(for character: Character) -> Key {
    switch character {
    case "\n", "\r": .enter
    case "\t": .tab
    default: .character(character)
    }
  }

  private static func namedKey(_ name: String) -> Key? {
    switch name {
    case "enter", "return": return .enter
    case "tab": return .tab
    case "bs", "backspace": return .backspace
    case "up": return .up
    case "down": return .down
    case "esc", "escape": return .escape
    case "home": return .home
    case "ctrl-c": return .interrupt
    case "space": return .character(" ")
    case "lt": return .character("<")
    case "lbrace": return .character("{")
    default:
      guard name.hasPrefix("ctrl-"), name.count == 6, let letter = name.last, letter.isLetter,
        letter.isASCII
      else { return nil }
      return .control(letter)
    }
  }

  private static func duration(_ text: String) -> Duration? {
    let (number, scale): (Substring, Double) =
      if text.hasSuffix("ms") { (text.dropLast(2), 1e-3) } else if text.hasSuffix("s") {
        (text.dropLast(1), 1)
      } else { ("", 0) }
    guard let value = Double(number), value >= 0, value * scale <= 3600 else { return nil }
    return .milliseconds(Int((value * scale * 1000).rounded()))
  }

  static func format(_ duration: Duration) -> String {
    let milliseconds =
      duration.components.seconds * 1000
      + duration.components.attoseconds / 1_000_000_000_000_000
    return milliseconds % 1000 == 0 ? "\(milliseconds / 1000)s" : "\(milliseconds)ms"
  }
}

/// A mistake in a `--keys` script.
public struct ScriptError: Error, Hashable, CustomStringConvertible {
  /// The character offset where the mistake starts.
  public var offset: Int
  public var message: String

  public init(offset: Int, message: String) {
    self.offset = offset
    self.message = message
  }

  public var description: String { "--keys, character \(offset + 1): \(message)" }
}
