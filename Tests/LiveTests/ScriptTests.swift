import ArchitectureApps
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
      "<end>", 1,
      "unknown key <end>; known: <enter> <tab> <bs> <up> <down> <esc> <home> <space> "
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

  /// Home, as terminals send it (xterm, application mode, VT220, rxvt); other `~` keys are not.
  @Test func homeArrivesInEveryEncoding() throws {
    var decoder = KeyDecoder()
    #expect(
      decoder.keys(from: Array("\u{1B}[H\u{1B}OH\u{1B}[1~\u{1B}[7~\u{1B}[17~\u{1B}[11~".utf8))
        == [.home, .home, .home, .home])
    #expect(try Script("<home>").steps == [.key(.home)])
  }

  /// A bracketed paste is text: its Enter, Escape and Ctrl-C bytes never act as keys (SPEC L1).
  @Test func aBracketedPasteIsTextWhateverItHolds() {
    var decoder = KeyDecoder()
    let pasted = "a\r\n\u{1B}[2J\u{03}b東"
    let keys = decoder.keys(
      from: Array("x\u{1B}[200~".utf8) + Array(pasted.utf8) + Array("\u{1B}[201~y".utf8))
    #expect(keys == [.character("x"), .paste(pasted), .character("y")])
  }

  @Test func aPasteSplitAcrossReadsArrivesWhole() {
    var decoder = KeyDecoder()
    let bytes =
      Array("\u{1B}[200~".utf8) + Array("hello\u{1B}world".utf8) + Array("\u{1B}[201~".utf8)
    // Every split point, the markers' included.
    for split in 1..<bytes.count {
      #expect(
        decoder.keys(from: bytes[..<split]) + decoder.keys(from: bytes[split...])
          == [.paste("hello\u{1B}world")])
    }
    // A pause in the middle of a paste (the reader flushes) loses nothing.
    #expect(decoder.keys(from: Array("\u{1B}[200~ab\u{1B}[20".utf8)) == [])
    #expect(!decoder.isHoldingEscape)
    #expect(decoder.flush() == [])
    #expect(decoder.keys(from: Array("1~".utf8)) == [.paste("ab")])
    let long = String(repeating: "0123456789", count: 1_000)
    var keys: [Key] = decoder.keys(from: Array("\u{1B}[200~".utf8))
    for chunk in Array(long.utf8).chunked(into: 997) { keys += decoder.keys(from: chunk) }
    keys += decoder.keys(from: Array("\u{1B}[201~".utf8))
    #expect(keys == [.paste(long)])
  }
}

/// What a paste does in each app with a text field: one change, its line breaks kept as text.
@Suite struct PasteTests {
  @Test func weatherTypesAPasteIntoTheQueryAtOnce() {
    var input = WeatherApp.initialInput
    input.query = "Ber"
    let view = WeatherView.initial
    #expect(
      WeatherApp.action(for: .paste("lin\r\nx"), view: view, input: &input)
        == .send(.queryChanged("Berlin\r\nx")))
  }

  @Test func todosTypeAPasteIntoTheDraftWithoutAddingIt() {
    var input = TodosApp.initialInput
    var view = TodosView.loading
    view.status = .ready
    let action = TodosApp.action(for: .paste("Milk\nEggs"), view: view, input: &input)
    #expect(action == .send(.draftChanged("Milk\nEggs")))
  }

  @Test func theCounterIgnoresAPaste() {
    var none: Void = ()
    #expect(CounterApp.action(for: .paste("+++"), view: .loading, input: &none) == .none)
  }
}

extension Array {
  fileprivate func chunked(into size: Int) -> [ArraySlice<Element>] {
    stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
  }
}
