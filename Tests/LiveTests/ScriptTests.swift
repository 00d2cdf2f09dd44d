import Console
import Testing

/// `--keys` scripts and the bytes a terminal sends.
@Suite struct ScriptTests {
  @Test func charactersAreKeysAndNotationsNameKeysAndWaits() throws {
    let script = try Script(
      "+a <enter><TAB><bs><up><down><esc><space><ctrl-r><lt><lbrace>{300ms}{1.5s}{2s}")
    #expect(
      script.steps == [
        .key(.character("+")), .key(.character("a")), .key(.character(" ")), .key(.enter),
        .key(.tab), .key(.backspace), .key(.up), .key(.down), .key(.escape),
        .key(.character(" ")), .key(.control("r")), .key(.character("<")),
        .key(.character("{")), .wait(.milliseconds(300)), .wait(.milliseconds(1500)),
        .wait(.seconds(2)),
      ])
    #expect(
      script.steps.map(\.description).joined()
        == "+a<space><enter><tab><bs><up><down><esc><space><ctrl-r><{{300ms}{1500ms}{2s}")
  }

  @Test(arguments: [
    ("ab<enter", 3, "'<' without a closing '>' (write <lt>)"),
    (
      "<home>", 1,
      "unknown key <home>; known: <enter> <tab> <bs> <up> <down> <esc> <space> "
        + "<ctrl-LETTER> <lt> <lbrace>"
    ),
    ("x{3", 2, "'{' without a closing '}' (write <lbrace>)"),
    ("{soon}", 1, "'{soon}' is not a wait; write {300ms} or {1.5s}"),
    ("{-1s}", 1, "'{-1s}' is not a wait; write {300ms} or {1.5s}"),
    ("{2h}", 1, "'{2h}' is not a wait; write {300ms} or {1.5s}"),
  ])
  func mistakesNameThePositionAndTheFix(text: String, position: Int, message: String) {
    #expect(throws: ScriptError(offset: position - 1, message: message)) { try Script(text) }
  }

  @Test func theDecoderReadsPrintableControlAndUTF8Keys() {
    var decoder = KeyDecoder()
    let keys = decoder.keys(from: Array("a+ \r\t".utf8) + [0x7F, 0x03, 0x12] + Array("ü東".utf8))
    #expect(
      keys == [
        .character("a"), .character("+"), .character(" "), .enter, .tab, .backspace, .interrupt,
        .control("r"), .character("ü"), .character("東"),
      ])
  }

  @Test func arrowsSplitAcrossReadsArriveWhole() {
    var decoder = KeyDecoder()
    #expect(decoder.keys(from: [0x1B, UInt8(ascii: "[")]) == [])
    #expect(
      decoder.keys(from: [UInt8(ascii: "A"), 0x1B, UInt8(ascii: "O"), UInt8(ascii: "B")]) == [
        .up, .down,
      ])
    let tokyo = Array("東".utf8)
    #expect(decoder.keys(from: tokyo.prefix(2)) == [])
    #expect(decoder.keys(from: tokyo.suffix(1)) == [.character("東")])
  }

  @Test func aLoneEscapeIsHeldUntilFlushedAndOtherSequencesAreIgnored() {
    var decoder = KeyDecoder()
    #expect(decoder.keys(from: [0x1B]) == [])
    #expect(decoder.isHoldingEscape)
    #expect(decoder.flush() == [.escape])
    #expect(decoder.keys(from: [0x1B]) == [])
    #expect(decoder.keys(from: Array("[A".utf8)) == [.up])
    #expect(decoder.flush() == [])
    #expect(decoder.keys(from: [0x1B, UInt8(ascii: "q")]) == [])  // Alt-q
    #expect(decoder.keys(from: [0x1B, 0x1B]) == [.escape])
    #expect(decoder.flush() == [.escape])
    #expect(decoder.keys(from: Array("\u{1B}[C\u{1B}[15~x".utf8)) == [.character("x")])
  }
}
