/// Outside text made safe for a terminal (SPEC L1): what servers, files and keys send never
/// reaches the screen raw.
///
/// Views keep outside text as received (traces compare raw text); only the screen applies this.
public enum ScreenText {
  /// The longest outside text a notice shows, in characters; longer text is cut to one less
  /// and `…`.
  public static let noticeLimit = 200

  /// `text` with every control character shown instead of acting: each C0 character (tab, CR
  /// and LF included) and DEL as its Unicode Control Picture (`␛`, `␊`, `␡`); each C1 character
  /// and each bidirectional or line/paragraph separator control as `�`. The rest of an escape
  /// sequence stays, as plain text.
  ///
  /// - Complexity: O(n) in the length of `text`; text without controls is returned as it is.
  public static func safe(_ text: some StringProtocol) -> String {
    let scalars = text.unicodeScalars
    guard scalars.contains(where: needsReplacement) else { return String(text) }
    var result = String.UnicodeScalarView()
    result.reserveCapacity(scalars.count)
    for scalar in scalars { result.append(replacement(for: scalar)) }
    return String(result)
  }

  /// `text` made ``safe(_:)`` and, when longer than ``noticeLimit`` characters, cut to its
  /// first 199 and `…`: what a notice line shows of outside text.
  ///
  /// - Complexity: O(min(n, ``noticeLimit``)) characters counted after the replacement pass.
  public static func notice(_ text: some StringProtocol) -> String {
    let shown = safe(text)
    guard let cut = shown.index(shown.startIndex, offsetBy: noticeLimit, limitedBy: shown.endIndex),
      cut != shown.endIndex
    else { return shown }
    return String(shown[..<shown.index(before: cut)]) + "…"
  }

  private static func needsReplacement(_ scalar: Unicode.Scalar) -> Bool {
    replacement(for: scalar) != scalar
  }

  private static func replacement(for scalar: Unicode.Scalar) -> Unicode.Scalar {
    switch scalar.value {
    case 0x00...0x1F: Unicode.Scalar(0x2400 + scalar.value)!  // ␀ … ␟
    case 0x7F: "\u{2421}"  // ␡
    case 0x80...0x9F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029: "\u{FFFD}"
    default: scalar
    }
  }
}
