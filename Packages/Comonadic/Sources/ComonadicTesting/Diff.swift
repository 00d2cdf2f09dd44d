import Foundation

/// A line diff of two values' dumps: `−` lines only in the expected value, `+` lines only in
/// the actual one, unchanged lines indented. Empty when the dumps are equal.
func difference<Value>(expected: Value, actual: Value) -> String {
  var left = ""
  var right = ""
  dump(expected, to: &left)
  dump(actual, to: &right)
  let old = left.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  let new = right.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  guard old != new else { return "" }
  // Longest common subsequence, then walk it.
  var lengths = Array(repeating: Array(repeating: 0, count: new.count + 1), count: old.count + 1)
  for i in stride(from: old.count - 1, through: 0, by: -1) {
    for j in stride(from: new.count - 1, through: 0, by: -1) {
      lengths[i][j] =
        old[i] == new[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
    }
  }
  var lines: [String] = []
  var i = 0
  var j = 0
  while i < old.count || j < new.count {
    if i < old.count, j < new.count, old[i] == new[j] {
      lines.append("  " + old[i])
      i += 1
      j += 1
    } else if i < old.count, j == new.count || lengths[i + 1][j] >= lengths[i][j + 1] {
      lines.append("− " + old[i])
      i += 1
    } else {
      lines.append("+ " + new[j])
      j += 1
    }
  }
  return lines.filter { $0.trimmingCharacters(in: .whitespaces) != "" }.joined(separator: "\n")
}
