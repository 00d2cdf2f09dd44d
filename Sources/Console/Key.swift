/// A key the user pressed, or a script named.
public enum Key: Hashable, Sendable, CustomStringConvertible {
  /// A printable character.
  case character(Character)
  case enter
  case tab
  case backspace
  case up
  case down
  case escape
  /// Home (`ESC [ H`, `ESC O H`, `ESC [ 1 ~`, `ESC [ 7 ~`).
  case home
  /// Control and a letter (`.control("r")` is Ctrl-R). Ctrl-C is ``interrupt``.
  case control(Character)
  /// Ctrl-C.
  case interrupt
  /// Text pasted in one piece (bracketed paste): text, whatever it holds, never keys (SPEC L1).
  /// An app with a text field types it there at once; the others ignore it.
  case paste(String)

  public var description: String {
    switch self {
    case .character(" "): "<space>"
    case .character(let character): String(character)
    case .enter: "<enter>"
    case .tab: "<tab>"
    case .backspace: "<bs>"
    case .up: "<up>"
    case .down: "<down>"
    case .escape: "<esc>"
    case .home: "<home>"
    case .control(let letter): "<ctrl-\(letter)>"
    case .interrupt: "<ctrl-c>"
    case .paste(let text): "<paste \(text.count) characters>"
    }
  }
}

/// Turns the bytes a terminal sends into keys.
///
/// Feed it what `read` returned; an escape sequence split across reads is kept until the rest
/// arrives. An escape byte at the end of a read is held: it is the Escape key when ``flush()``
/// is called (the reader calls it when nothing more arrived in a short while).
public struct KeyDecoder: Sendable {
  private var pending: [UInt8] = []
  /// The bytes of a bracketed paste so far, while one is coming in.
  private var pasted: [UInt8]?

  private static let pasteStart = Array("\u{1B}[200~".utf8)
  private static let pasteEnd = Array("\u{1B}[201~".utf8)

  public init() {}

  /// Whether an escape byte is held, waiting to see whether a sequence follows.
  public var isHoldingEscape: Bool { pasted == nil && pending == [0x1B] }

  /// Ends a held escape byte as the Escape key (and drops any unfinished sequence). A paste in
  /// progress is kept: its end is on its way.
  public mutating func flush() -> [Key] {
    guard pasted == nil else { return [] }
    defer { pending.removeAll() }
    return isHoldingEscape ? [.escape] : []
  }

  /// The keys in `bytes` and in what earlier calls left undecoded.
  public mutating func keys(from bytes: some Sequence<UInt8>) -> [Key] {
    pending += bytes
    var keys: [Key] = []
    var index = 0
    while index < pending.count {
      if pasted != nil {
        // Inside a paste everything up to its end marker is text, split reads included.
        guard let end = Self.find(Self.pasteEnd, in: pending, from: index) else {
          // Keep a possible start of the end marker for the next read.
          let keep = min(Self.pasteEnd.count - 1, pending.count - index)
          pasted! += pending[index..<(pending.count - keep)]
          pending.removeFirst(pending.count - keep)
          return keys
        }
        pasted! += pending[index..<end]
        keys.append(.paste(String(decoding: pasted!, as: UTF8.self)))
        pasted = nil
        index = end + Self.pasteEnd.count
        continue
      }
      if pending[index] == 0x1B, pending.count - index >= Self.pasteStart.count,
        pending[index..<(index + Self.pasteStart.count)].elementsEqual(Self.pasteStart)
      {
        pasted = []
        index += Self.pasteStart.count
        continue
      }
      let byte = pending[index]
      switch byte {
      case 0x1B:
        // ESC [ A / ESC O A: arrows; a lone ESC: Escape (once flushed).
        guard index + 1 < pending.count else {
          pending.removeFirst(index)
          return keys
        }
        let next = pending[index + 1]
        if next == 0x1B {
          keys.append(.escape)  // Escape pressed twice: the first one is whole
          index += 1
          continue
        }
        guard next == UInt8(ascii: "[") || next == UInt8(ascii: "O") else {
          index += 2  // Alt and a key: means nothing here
          continue
        }
        guard index + 2 < pending.count else {
          pending.removeFirst(index)
          return keys
        }
        var end = index + 2
        while end < pending.count, !(0x40...0x7E).contains(pending[end]) { end += 1 }
        guard end < pending.count else {
          pending.removeFirst(index)
          return keys
        }
        switch pending[end] {
        case UInt8(ascii: "A"): keys.append(.up)
        case UInt8(ascii: "B"): keys.append(.down)
        case UInt8(ascii: "H"): keys.append(.home)
        case UInt8(ascii: "~")
        where end == index + 3
          && [UInt8(ascii: "1"), UInt8(ascii: "7")].contains(pending[index + 2]):
          keys.append(.home)
        default: break  // other sequences (right, left, function keys) mean nothing here
        }
        index = end + 1
      case 0x03:
        keys.append(.interrupt)
        index += 1
      case 0x0D, 0x0A:
        keys.append(.enter)
        index += 1
      case 0x09:
        keys.append(.tab)
        index += 1
      case 0x7F, 0x08:
        keys.append(.backspace)
        index += 1
      case 0x01...0x1A:
        keys.append(.control(Character(Unicode.Scalar(byte + 0x60))))
        index += 1
      case 0x20...0x7E:
        keys.append(.character(Character(Unicode.Scalar(byte))))
        index += 1
      case 0xC0...0xF7:
        let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
        guard index + length <= pending.count else {
          pending.removeFirst(index)
          return keys
        }
        if let text = String(validating: pending[index..<index + length], as: UTF8.self),
          let character = text.first
        {
          keys.append(.character(character))
        }
        index += length
      default:
        index += 1  // a stray continuation byte or another control byte
      }
    }
    pending.removeAll()
    return keys
  }

  /// The index where `marker` begins in `bytes` at or after `start`.
  private static func find(_ marker: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
    guard bytes.count - start >= marker.count else { return nil }
    var index = start
    while index <= bytes.count - marker.count {
      if bytes[index] == marker[0], bytes[index..<(index + marker.count)].elementsEqual(marker) {
        return index
      }
      index += 1
    }
    return nil
  }
}
