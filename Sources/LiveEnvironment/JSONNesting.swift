/// Whether a JSON text nests arrays and objects `limit` deep or more, outside strings: such a
/// text is refused before Foundation's `JSONDecoder` sees it.
///
/// Foundation (FoundationEssentials, Swift 6.3 on Linux) traps — the process ends — on a text
/// that ends with its 513th unclosed `[` (found by `Scripts/fuzz.sh`; the input is in
/// `Tests/Fuzz/Regressions`): computing where its nesting error is reads past the end. A server's
/// answer or a todos file must never end the app (SPEC L4, L6), and no answer the app reads
/// nests more than a few levels, so deep texts are refused as not what the app reads.
///
/// - Complexity: O(*n*), no allocation.
func jsonNestsTooDeep(_ bytes: some Collection<UInt8>, limit: Int = 512) -> Bool {
  var depth = 0
  var inString = false
  var escaped = false
  for byte in bytes {
    if inString {
      if escaped {
        escaped = false
      } else if byte == UInt8(ascii: "\\") {
        escaped = true
      } else if byte == UInt8(ascii: "\"") {
        inString = false
      }
      continue
    }
    switch byte {
    case UInt8(ascii: "\""): inString = true
    case UInt8(ascii: "["), UInt8(ascii: "{"):
      depth += 1
      if depth >= limit { return true }
    case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
    default: break
    }
  }
  return false
}
