import Foundation

extension Comparison {
  /// The contestant every ratio is taken against first.
  public static let baselineName = "baseline"
  /// The physical floor, the second reference.
  public static let bareName = "bare"

  /// A plain-text table per workload, for a terminal.
  public func text() -> String {
    var lines = [heading]
    for workload in workloads {
      lines.append("")
      lines.append(
        "\(workload.name) — ns per \(workload.operation), \(workload.operations) per sample")
      lines.append(
        row(["contestant", "median", "95% interval", "×baseline", "×bare", "notif/op"]))
      for result in workload.results {
        lines.append(row(cells(workload, result)))
      }
    }
    return lines.joined(separator: "\n")
  }

  /// A Markdown table per workload.
  public func markdown(chartDirectory: String? = nil) -> String {
    var lines = ["_\(heading)_"]
    for workload in workloads {
      lines += [
        "", "### `\(workload.name)`", "",
        "ns per \(workload.operation), \(workload.operations) per sample.", "",
      ]
      if let chartDirectory {
        lines += ["![\(workload.name)](\(chartDirectory)/\(workload.name).svg)", ""]
      }
      lines.append(
        "| contestant | median ns | 95% interval | × baseline | × bare | notifications/op |")
      lines.append("|---|---:|---:|---:|---:|---:|")
      for result in workload.results {
        lines.append("| " + cells(workload, result).joined(separator: " | ") + " |")
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The comparison as JSON.
  public func json() throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(self), as: UTF8.self)
  }

  /// A horizontal bar chart of one workload's medians with their intervals, as SVG.
  public func svg(_ workload: WorkloadResults) -> String {
    let timed = workload.results.filter { $0.nanoseconds != nil }
    let labelWidth = 110.0
    let barArea = 420.0
    let rowHeight = 26.0
    let top = 34.0
    let height = top + rowHeight * Double(max(timed.count, 1)) + 12
    let largest = timed.compactMap { $0.nanoseconds?.high }.max() ?? 1
    var parts = [
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"640\" height=\"\(Int(height))\" "
        + "font-family=\"sans-serif\" font-size=\"12\">",
      "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>",
      "<text x=\"8\" y=\"20\" font-weight=\"bold\">\(escape(workload.name)): ns per "
        + "\(escape(workload.operation)) (median, 95% interval)</text>",
    ]
    for (index, result) in timed.enumerated() {
      guard let summary = result.nanoseconds else { continue }
      let y = top + rowHeight * Double(index)
      let width = max(1, summary.median / largest * barArea)
      let low = labelWidth + summary.low / largest * barArea
      let high = labelWidth + summary.high / largest * barArea
      let middle = y + rowHeight / 2 - 2
      let fill = result.contestant == Self.baselineName ? "#888888" : "#3b6ea5"
      parts += [
        "<text x=\"8\" y=\"\(format(middle + 4))\">\(escape(result.contestant))</text>",
        "<rect x=\"\(format(labelWidth))\" y=\"\(format(y + 4))\" width=\"\(format(width))\" "
          + "height=\"\(format(rowHeight - 10))\" fill=\"\(fill)\"/>",
        "<line x1=\"\(format(low))\" y1=\"\(format(middle))\" x2=\"\(format(high))\" "
          + "y2=\"\(format(middle))\" stroke=\"black\"/>",
        "<text x=\"\(format(labelWidth + width + 8))\" y=\"\(format(middle + 4))\">"
          + "\(number(summary.median))</text>",
      ]
    }
    parts.append("</svg>")
    return parts.joined(separator: "\n") + "\n"
  }

  private var heading: String {
    "\(setup.samples) samples\(setup.isQuick ? " (quick)" : ""), \(setup.machine), \(setup.date)"
  }

  private func cells(_ workload: WorkloadResults, _ result: ContestantResult) -> [String] {
    guard let summary = result.nanoseconds else {
      let reason =
        result.failure.map { "wrong result: \($0)" }
        ?? "not timed: \(result.notTimed ?? "no samples")"
      return [result.contestant, reason, "", "", "", ""]
    }
    return [
      result.contestant, number(summary.median),
      "\(number(summary.low))–\(number(summary.high))",
      ratio(workload, result.contestant, to: Self.baselineName).map { times($0) } ?? "—",
      ratio(workload, result.contestant, to: Self.bareName).map { times($0) } ?? "—",
      result.notificationsPerOperation.map { number($0) } ?? "—",
    ]
  }

  private func row(_ cells: [String]) -> String {
    let widths = [14, 12, 22, 11, 10, 10]
    return zip(cells, widths).map { cell, width in
      cell.count >= width ? cell + " " : cell + String(repeating: " ", count: width - cell.count)
    }.joined()
  }
}

/// A number with three significant digits at most, and no exponent.
func number(_ value: Double) -> String {
  if value >= 100 || value == value.rounded() && value < 1e15 {
    return String(Int(value.rounded()))
  }
  if value >= 10 { return String(format: "%.1f", value) }
  return String(format: "%.2f", value)
}

private func format(_ value: Double) -> String { String(format: "%.1f", value) }

private func escape(_ text: String) -> String {
  text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
}
