import Foundation

extension Scaling {
  /// The curves as plain text: per operation, the median ns per operation at each size, the
  /// growth exponent and the ratio to baseline at the largest size; then the notifications per
  /// observer kind and the memory table.
  public func text() -> String {
    var lines = [
      "\(setup.samples) samples\(setup.isQuick ? " (quick)" : ""), \(setup.machine), "
        + "\(setup.date)",
      "cost ∝ rows^k: k is the fitted growth exponent (0 flat, 1 linear)",
    ]
    let largest = sizes.last ?? 0
    for curves in operations {
      lines += ["", "\(curves.name) — ns per \(curves.unit), by rows"]
      lines.append(
        row(
          ["contestant"] + sizes.map { grouped($0) } + ["k", "×baseline@\(grouped(largest))"],
          widths: columnWidths))
      for curve in curves.curves {
        var cells = [curve.contestant]
        cells += curve.nanoseconds.map { $0.map(number) ?? "—" }
        cells.append(curve.exponent.map { String(format: "%.2f", $0) } ?? "—")
        cells.append(ratio(curves, curve.contestant, rows: largest).map(times) ?? "—")
        lines.append(row(cells, widths: columnWidths))
        if let failure = curve.failure { lines.append("    \(failure)") }
      }
    }
    lines += [
      "",
      "notifications per operation at \(grouped(largest)) rows (root · each changed "
        + "observed row · the unchanged observed rows together, which must be 0)",
    ]
    for curves in operations {
      let kinds = curves.curves.compactMap { curve -> String? in
        guard let index = sizes.firstIndex(of: largest),
          let kind = curve.notifications[index], curve.operations[index] > 0
        else { return nil }
        return Self.describe(kind, operations: curve.operations[index])
      }
      let distinct = Array(Set(kinds)).sorted()
      let summary =
        distinct.count == 1
        ? "\(distinct[0]) (every contestant)" : distinct.joined(separator: " | ")
      lines.append("  \(curves.name): \(summary.isEmpty ? "—" : summary)")
    }
    if !memory.isEmpty {
      lines += [
        "",
        "memory: a loaded list of \(grouped(memory[0].rows)) rows (retained: heap after the "
          + "load; peak: resident growth during it)",
        row(
          ["contestant", "retained", "×baseline", "peak", "×baseline"], widths: [14, 14, 11, 14]),
      ]
      let reference = memory.first { $0.contestant == Comparison.baselineName }
      for use in memory {
        let retained = reference.map {
          Double(use.retainedBytes) / Double(max($0.retainedBytes, 1))
        }
        var peakRatio: Double?
        if let peak = use.peakBytes, let base = reference?.peakBytes {
          peakRatio = Double(peak) / Double(max(base, 1))
        }
        let cells: [String] = [
          use.contestant, bytes(use.retainedBytes), retained.map(times) ?? "—",
          use.peakBytes.map(bytes) ?? "—", peakRatio.map(times) ?? "—",
        ]
        lines.append(row(cells, widths: [14, 14, 11, 14]))
      }
    }
    return lines.joined(separator: "\n")
  }

  /// `2 root · 3 per changed row (1 row) · 0 unchanged (19 rows)`, per operation.
  static func describe(_ kind: NotificationsByKind, operations: Int) -> String {
    let count = Double(operations)
    var parts = ["\(number(Double(kind.root) / count)) root"]
    if kind.changedRowsObserved > 0 {
      parts.append(
        "\(number(Double(kind.changedRows) / count / Double(kind.changedRowsObserved))) per "
          + "changed row (\(kind.changedRowsObserved))")
    }
    if kind.unchangedRowsObserved > 0 {
      parts.append("\(kind.unchangedRows) unchanged (\(kind.unchangedRowsObserved))")
    }
    return parts.joined(separator: " · ")
  }

  /// The curves as JSON.
  public func json() throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(self), as: UTF8.self)
  }

  /// A log-log chart of one operation: ns per operation against rows, one line per
  /// contestant, with labelled axes, units and a legend.
  public func svg(_ curves: Curves) -> String {
    let values = curves.curves.flatMap { $0.nanoseconds.compactMap { $0 } }.filter { $0 > 0 }
    let chart = LogChart(
      title: "\(curves.name): ns per \(curves.unit) against rows (log-log)",
      xLabel: "rows in the list", yLabel: "ns per \(curves.unit) (median)",
      xValues: sizes.map(Double.init), yRange: (values.min() ?? 1, values.max() ?? 10))
    var series: [LogChart.Series] = []
    for curve in curves.curves {
      let points = zip(sizes, curve.nanoseconds).compactMap { rows, value in
        value.map { (Double(rows), $0) }
      }
      let exponent = curve.exponent.map { String(format: " (k = %.2f)", $0) } ?? ""
      series.append(.init(label: curve.contestant + exponent, points: points))
    }
    return chart.render(series)
  }

  /// One chart of every operation's ratio to baseline, one line per architecture, against rows.
  public func overviewSVG() -> String {
    let contestants = operations.flatMap { $0.curves.map(\.contestant) }
      .reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
      .filter { $0 != Comparison.baselineName }
    // Per architecture, the geometric mean over operations of the ratio at each size.
    var series: [LogChart.Series] = []
    var all: [Double] = [1]
    for contestant in contestants {
      let points = sizes.compactMap { rows -> (Double, Double)? in
        let ratios = operations.compactMap { ratio($0, contestant, rows: rows) }.filter { $0 > 0 }
        guard !ratios.isEmpty else { return nil }
        let mean = exp(ratios.map(log).reduce(0, +) / Double(ratios.count))
        all.append(mean)
        return (Double(rows), mean)
      }
      series.append(.init(label: contestant, points: points))
    }
    let chart = LogChart(
      title: "Every list operation: time × baseline (geometric mean over \(operations.count) "
        + "operations)",
      xLabel: "rows in the list", yLabel: "× baseline (1 = as fast; lower is faster)",
      xValues: sizes.map(Double.init), yRange: (min(all.min() ?? 1, 1), max(all.max() ?? 2, 2)),
      marks: [(1, "baseline"), (1.5, "1.5×")])
    return chart.render(series)
  }

  private var columnWidths: [Int] { [14] + sizes.map { _ in 12 } + [7, 12] }

  private func row(_ cells: [String], widths: [Int]) -> String {
    zip(cells, widths + Array(repeating: 12, count: max(0, cells.count - widths.count)))
      .map { cell, width in
        cell.count >= width ? cell + " " : cell + String(repeating: " ", count: width - cell.count)
      }.joined()
  }
}

/// `100,000`.
func grouped(_ value: Int) -> String {
  let digits = String(value)
  var result = ""
  for (index, digit) in digits.enumerated() {
    if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
    result.append(digit)
  }
  return result
}

/// `12.3 MB`, in powers of 1,000.
func bytes(_ value: Int) -> String {
  let units = ["B", "kB", "MB", "GB"]
  var amount = Double(value)
  var unit = 0
  while abs(amount) >= 1_000, unit < units.count - 1 {
    amount /= 1_000
    unit += 1
  }
  return "\(number(amount)) \(units[unit])"
}

func times(_ value: Double) -> String {
  value >= 10 ? "\(Int(value.rounded()))×" : String(format: "%.2f×", value)
}

/// A chart with logarithmic axes, drawn as SVG.
struct LogChart {
  struct Series {
    var label: String
    var points: [(Double, Double)]
  }

  var title: String
  var xLabel: String
  var yLabel: String
  var xValues: [Double]
  var yRange: (Double, Double)
  /// Horizontal lines with a label: `(1.5, "1.5×")`.
  var marks: [(Double, String)] = []

  /// One colour per contestant, the same in every chart; others take the rest in turn.
  private static let colors = [
    "baseline": "#555555", "elm-store": "#1f77b4", "mue": "#d62728", "io-loop": "#2ca02c",
    "layer-core": "#9467bd", "comonadic": "#ff7f0e",
  ]
  private static let others = ["#8c564b", "#17becf", "#e377c2", "#bcbd22"]

  func render(_ series: [Series]) -> String {
    let (left, top, plotWidth, plotHeight) = (78.0, 40.0, 470.0, 300.0)
    let legendX = left + plotWidth + 20
    let width = legendX + 200
    let height = top + plotHeight + 56
    // Decades that hold every value.
    let low = floor(log10(max(yRange.0, 1e-9)))
    var high = ceil(log10(max(yRange.1, 1e-9)))
    if high <= low { high = low + 1 }
    let xLow = log10(xValues.min() ?? 1)
    let xHigh = max(log10(xValues.max() ?? 10), xLow + 1)
    func x(_ value: Double) -> Double {
      left + (log10(value) - xLow) / (xHigh - xLow) * plotWidth
    }
    func y(_ value: Double) -> Double {
      top + plotHeight - (log10(value) - low) / (high - low) * plotHeight
    }
    var parts = [
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" "
        + "font-family=\"sans-serif\" font-size=\"12\">",
      "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>",
      "<text x=\"8\" y=\"20\" font-weight=\"bold\">\(escaped(title))</text>",
    ]
    // Grid and tick labels: every decade on y, every size on x.
    for decade in Int(low)...Int(high) {
      let value = pow(10, Double(decade))
      let position = y(value)
      parts.append(
        "<line x1=\"\(f(left))\" y1=\"\(f(position))\" x2=\"\(f(left + plotWidth))\" "
          + "y2=\"\(f(position))\" stroke=\"#dddddd\"/>")
      parts.append(
        "<text x=\"\(f(left - 6))\" y=\"\(f(position + 4))\" text-anchor=\"end\">"
          + "\(tick(value))</text>")
    }
    for value in xValues {
      let position = x(value)
      parts.append(
        "<line x1=\"\(f(position))\" y1=\"\(f(top))\" x2=\"\(f(position))\" "
          + "y2=\"\(f(top + plotHeight))\" stroke=\"#dddddd\"/>")
      parts.append(
        "<text x=\"\(f(position))\" y=\"\(f(top + plotHeight + 16))\" text-anchor=\"middle\">"
          + "\(grouped(Int(value)))</text>")
    }
    parts += [
      "<rect x=\"\(f(left))\" y=\"\(f(top))\" width=\"\(f(plotWidth))\" height=\"\(f(plotHeight))\" "
        + "fill=\"none\" stroke=\"black\"/>",
      "<text x=\"\(f(left + plotWidth / 2))\" y=\"\(f(top + plotHeight + 38))\" "
        + "text-anchor=\"middle\">\(escaped(xLabel))</text>",
      "<text transform=\"translate(16 \(f(top + plotHeight / 2))) rotate(-90)\" "
        + "text-anchor=\"middle\">\(escaped(yLabel))</text>",
    ]
    for (value, label) in marks where value >= pow(10, low) && value <= pow(10, high) {
      parts.append(
        "<line x1=\"\(f(left))\" y1=\"\(f(y(value)))\" x2=\"\(f(left + plotWidth))\" "
          + "y2=\"\(f(y(value)))\" stroke=\"#999999\" stroke-dasharray=\"5 4\"/>")
      parts.append(
        "<text x=\"\(f(left + plotWidth - 4))\" y=\"\(f(y(value) - 4))\" text-anchor=\"end\" "
          + "fill=\"#666666\">\(escaped(label))</text>")
    }
    for (index, line) in series.enumerated() {
      let name = String(line.label.prefix { $0 != " " })
      let color = Self.colors[name] ?? Self.others[index % Self.others.count]
      let path = line.points.map { "\(f(x($0.0))),\(f(y($0.1)))" }.joined(separator: " ")
      if line.points.count > 1 {
        parts.append(
          "<polyline points=\"\(path)\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\"/>"
        )
      }
      for point in line.points {
        parts.append(
          "<circle cx=\"\(f(x(point.0)))\" cy=\"\(f(y(point.1)))\" r=\"3\" fill=\"\(color)\"/>")
      }
      let legendY = top + 8 + Double(index) * 20
      parts.append(
        "<line x1=\"\(f(legendX))\" y1=\"\(f(legendY))\" x2=\"\(f(legendX + 22))\" "
          + "y2=\"\(f(legendY))\" stroke=\"\(color)\" stroke-width=\"2\"/>")
      parts.append(
        "<text x=\"\(f(legendX + 28))\" y=\"\(f(legendY + 4))\">\(escaped(line.label))</text>")
    }
    parts.append("</svg>")
    return parts.joined(separator: "\n") + "\n"
  }

  private func tick(_ value: Double) -> String {
    if value >= 1 { return grouped(Int(value.rounded())) }
    return String(format: "%g", value)
  }

  private func f(_ value: Double) -> String { String(format: "%.1f", value) }

  private func escaped(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
  }
}
