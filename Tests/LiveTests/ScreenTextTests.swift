import ArchitectureApps
import Testing

@testable import Console

/// Outside text on the screen (SPEC L1) and long lines (L3).
@Suite struct ScreenTextTests {
  @Test func escapeSequencesAndBellAreShownNotActedOn() {
    let hostile = "Berlin\u{1B}]0;pwned\u{07}\u{1B}[2J"
    #expect(ScreenText.safe(hostile) == "Berlin␛]0;pwned␇␛[2J")
  }

  @Test func everyC0CharacterAndDeleteBecomeControlPictures() {
    let c0 = String(String.UnicodeScalarView((0...0x1F).map { Unicode.Scalar($0)! }))
    let pictures = String(String.UnicodeScalarView((0x2400...0x241F).map { Unicode.Scalar($0)! }))
    #expect(ScreenText.safe(c0) == pictures)
    #expect(ScreenText.safe("a\r\nb\tc\u{7F}") == "a␍␊b␉c␡")
  }

  @Test func c1AndBidiAndSeparatorControlsBecomeReplacementCharacters() {
    let controls = [
      "\u{80}", "\u{85}", "\u{9B}", "\u{9F}", "\u{202A}", "\u{202E}", "\u{2066}",
      "\u{2069}", "\u{2028}", "\u{2029}",
    ]
    for control in controls {
      #expect(ScreenText.safe("x\(control)y") == "x\u{FFFD}y", "\(control.unicodeScalars.first!)")
    }
  }

  @Test func ordinaryTextIsUnchanged() {
    for text in ["São Paulo", "東京", "Zürich", "👩‍👩‍👧 family", "e\u{301}", "A&B=C+D?#/", ""] {
      #expect(ScreenText.safe(text) == text)
    }
  }

  @Test func aNoticeShowsAtMost200Characters() {
    #expect(ScreenText.notice(String(repeating: "a", count: 200)).count == 200)
    let cut = ScreenText.notice(String(repeating: "b", count: 201))
    #expect(cut == String(repeating: "b", count: 199) + "…")
    let huge = ScreenText.notice(String(repeating: "x", count: 500_000))
    #expect(huge.count == 200 && huge.hasSuffix("…"))
    // Counted in characters (grapheme clusters), after the replacement.
    let accents = ScreenText.notice(String(repeating: "e\u{301}", count: 250))
    #expect(accents.count == 200)
    let controls = ScreenText.notice(String(repeating: "\u{1B}", count: 300))
    #expect(controls == String(repeating: "␛", count: 199) + "…")
  }

  @Test func noticeLinesHoldNoControlAndAreCut() {
    let notices = Notices()
    notices.log("saved\u{1B}[2J")
    notices.problem(
      "127.0.0.1 answered HTTP 500: \u{1B}]0;pwned\u{07}" + String(repeating: "z", count: 500_000)
        + "\nNo network?")
    let lines = notices.lines
    #expect(lines.count == 3)
    for line in lines {
      #expect(!line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
      #expect(line.count <= 2 + ScreenText.noticeLimit)
    }
    #expect(lines[0] == "log: saved␛[2J")
  }

  /// In the shell, the storage and the weather each have their own notice line: one's success
  /// never clears the other's problem (SPEC L6).
  @Test func eachSourceKeepsItsOwnProblem() {
    let notices = Notices()
    notices.problem("storage: not saving", from: "storage")
    notices.problem("127.0.0.1: no answer within 10 s", from: "weather")
    #expect(notices.lines == ["! storage: not saving", "! 127.0.0.1: no answer within 10 s"])
    notices.problem(nil, from: "weather")
    #expect(notices.lines == ["! storage: not saving"])
    notices.problem("search failed", from: "weather")
    notices.problem("storage: cannot write", from: "storage")
    #expect(notices.lines == ["! storage: cannot write", "! search failed"])
  }

  @Test func wrappingBreaksAfterTheLastSpaceOfAPiece() {
    #expect(wrapped("", width: 10) == [""])
    #expect(wrapped("abc", width: 3) == ["abc"])
    #expect(wrapped("abcd", width: 3) == ["abc", "d"])
    #expect(wrapped("ab cd ef", width: 5) == ["ab ", "cd ef"])
    #expect(wrapped("ab cdefgh ij", width: 5) == ["ab ", "cdefg", "h ij"])
    #expect(wrapped("abcd ", width: 5) == ["abcd "])
    #expect(wrapped("abcde fg", width: 5) == ["abcde", " fg"])
  }

  @Test func aLongLineWrapsInPiecesThatFitAndLoseNothing() {
    let line = (0..<20_000).map { "w\($0 % 7)" }.joined(separator: " ")
    for width in [10, 39, 80] {
      let pieces = wrapped(line, width: width)
      #expect(pieces.allSatisfy { $0.count <= width })
      #expect(pieces.joined() == line)
    }
    #expect(wrapped(line, width: 10, limit: 3) == Array(wrapped(line, width: 10).prefix(3)))
    let unbroken = String(repeating: "n", count: 100_000)
    let pieces = wrapped(unbroken, width: 40)
    #expect(pieces.count == 2_500 && pieces.joined() == unbroken)
  }
}
