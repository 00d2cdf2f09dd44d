// Vendored from Kernel/Testing/LineDiff.swift by Scripts/vendor-kernel. Do not edit here: edit the source,
// then run the script (CI fails while a copy differs).

/// A line diff of two values' `dump`s: unchanged lines indented by two spaces, lines only in
/// the expected value marked `−` and lines only in the actual value marked `+`. Lines pair up
/// along a longest common subsequence, so a change in one field shows as one pair of lines.
/// Empty when the dumps are equal.
///
/// - Complexity: O(*n* × *m*) for dumps of *n* and *m* lines.
func lineDiff<Value>(expected: Value, actual: Value) -> String {
  let old = dumpedLines(expected)
  let new = dumpedLines(actual)
  guard old != new else { return "" }
  // lengths[i][j]: the length of the longest common subsequence of old[i...] and new[j...].
  var lengths = Array(repeating: Array(repeating: 0, count: new.count + 1), count: old.count + 1)
  for i in stride(from: old.count - 1, through: 0, by: -1) {
    for j in stride(from: new.count - 1, through: 0, by: -1) {
      lengths[i][j] =
        old[i] == new[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
    }
  }
  var lines: [String] = []
  var (i, j) = (0, 0)
  while i < old.count || j < new.count {
    if i < old.count, j < new.count, old[i] == new[j] {
      lines.append("  \(old[i])")
      (i, j) = (i + 1, j + 1)
    } else if j == new.count || (i < old.count && lengths[i + 1][j] >= lengths[i][j + 1]) {
      lines.append("− \(old[i])")
      i += 1
    } else {
      lines.append("+ \(new[j])")
      j += 1
    }
  }
  return lines.joined(separator: "\n")
}

private func dumpedLines<Value>(_ value: Value) -> [String] {
  var text = ""
  dump(value, to: &text)
  return text.split(separator: "\n").map(String.init)
}
