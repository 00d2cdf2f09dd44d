import Foundation

/// One action of a run and what it caused: the environment calls, the distinct views, and
/// every view each observed child received.
public struct TraceEntry<View: Codable & Hashable & Sendable>: Codable, Hashable, Sendable {
  /// The views one observed child received during a step, in order (SPEC "Trace", R11).
  public struct ChildViews: Codable, Hashable, Sendable {
    /// The child: a row id, a tab.
    public var child: String
    /// Every view it received, in order, as the app writes child views into traces.
    public var views: [String]

    public init(child: String, views: [String]) {
      self.child = child
      self.views = views
    }
  }

  /// The index of the step in its scenario; 0 is the start.
  public var step: Int
  /// What the step did, e.g. `send increment` or `advance 300 ms`.
  public var action: String
  /// The environment calls the step caused, in canonical order: cancellations first, sorted by
  /// their text, then everything else in the order made.
  public var calls: [String]
  /// Every view that differed from the one before it, in order.
  public var views: [View]
  /// The observed children that received views during the step, in the children's order.
  public var children: [ChildViews]
  /// How many times the root observer was called during the step (R10: exactly once per
  /// processed message that changed the view, so as many as ``views`` in a conforming run).
  public var notifications: Int

  public init(
    step: Int, action: String, calls: [String], views: [View], children: [ChildViews] = [],
    notifications: Int? = nil
  ) {
    self.step = step
    self.action = action
    self.calls = calls
    self.views = views
    self.children = children
    self.notifications = notifications ?? views.count
  }

  private enum CodingKeys: String, CodingKey {
    case step, action, calls, views, children, notifications
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    step = try container.decode(Int.self, forKey: .step)
    action = try container.decode(String.self, forKey: .action)
    calls = try container.decode([String].self, forKey: .calls)
    views = try container.decode([View].self, forKey: .views)
    children = try container.decodeIfPresent([ChildViews].self, forKey: .children) ?? []
    notifications =
      try container.decodeIfPresent(Int.self, forKey: .notifications) ?? views.count
  }

  /// Apps without children write the entries they always wrote: no `children` key; a step whose
  /// root notifications are one per distinct view (every conforming step) has no
  /// `notifications` key.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(step, forKey: .step)
    try container.encode(action, forKey: .action)
    try container.encode(calls, forKey: .calls)
    try container.encode(views, forKey: .views)
    if !children.isEmpty { try container.encode(children, forKey: .children) }
    if notifications != views.count {
      try container.encode(notifications, forKey: .notifications)
    }
  }
}

/// The ordered record of one run (SPEC "Trace"). Two architectures conform alike when their
/// traces of the same scenario are equal.
public struct Trace<View: Codable & Hashable & Sendable & CustomStringConvertible>: Hashable,
  Sendable
{
  public var entries: [TraceEntry<View>]

  public init(entries: [TraceEntry<View>] = []) { self.entries = entries }

  /// The trace as JSON lines: one entry per line, keys sorted.
  public func jsonLines() -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return entries.map { entry in
      // Encoding plain structs of strings, numbers and arrays cannot fail.
      (try? encoder.encode(entry)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }.joined(separator: "\n")
  }

  /// Reads a trace written by ``jsonLines()``.
  ///
  /// - Throws: `DecodingError` when a line is not a trace entry.
  public init(jsonLines: String) throws {
    let decoder = JSONDecoder()
    entries = try jsonLines.split(separator: "\n", omittingEmptySubsequences: true).map {
      try decoder.decode(TraceEntry<View>.self, from: Data($0.utf8))
    }
  }

  /// A readable description of the first place where this trace differs from `expected`, or
  /// `nil` when they are equal.
  public func firstDivergence(from expected: Trace, expectedName: String = "baseline") -> String? {
    for index in 0..<max(entries.count, expected.entries.count) {
      guard index < entries.count else {
        return
          "Trace ends early: \(expectedName) continues with step \(expected.entries[index].step) "
          + "(\(expected.entries[index].action))"
      }
      guard index < expected.entries.count else {
        return "Trace has an extra step \(entries[index].step) (\(entries[index].action))"
      }
      let actual = entries[index]
      let wanted = expected.entries[index]
      guard actual != wanted else { continue }
      var lines = ["Trace diverges from \(expectedName) at step \(wanted.step) (\(wanted.action)):"]
      if actual.action != wanted.action {
        lines.append("  action: expected \(wanted.action), actual \(actual.action)")
      }
      if actual.calls != wanted.calls {
        lines += describeListDifference(
          "calls", expected: wanted.calls, actual: actual.calls, describe: { $0 })
      }
      if actual.views != wanted.views {
        lines += describeListDifference(
          "views", expected: wanted.views, actual: actual.views, describe: \.description)
        if let first = zip(wanted.views, actual.views).first(where: { $0 != $1 }) {
          lines.append(
            "  first differing view: \(fieldDifferences(expected: first.0, actual: first.1))")
        }
      }
      if actual.children != wanted.children {
        lines += describeChildDifference(expected: wanted.children, actual: actual.children)
      }
      if actual.notifications != wanted.notifications {
        lines.append(
          "  R10: the root observer was called \(actual.notifications) time(s), "
            + "\(expectedName) \(wanted.notifications): it is called exactly when the view changed, "
            + "never for a message that left it as it was")
      }
      return lines.joined(separator: "\n")
    }
    return nil
  }
}

/// Lines describing how the child views of one step differ: the first child that differs.
func describeChildDifference<View>(
  expected: [TraceEntry<View>.ChildViews], actual: [TraceEntry<View>.ChildViews]
) -> [String] {
  let names = Set(expected.map(\.child) + actual.map(\.child))
  let order = (expected + actual).map(\.child)
  for name in order where names.contains(name) {
    let wanted = expected.first { $0.child == name }?.views ?? []
    let got = actual.first { $0.child == name }?.views ?? []
    if wanted != got {
      return describeListDifference("views of child \(name)", expected: wanted, actual: got) { $0 }
    }
  }
  return ["  child views differ"]
}

/// Lines describing how two lists differ, with a window around the first difference.
func describeListDifference<Element: Equatable>(
  _ label: String, expected: [Element], actual: [Element], describe: (Element) -> String
) -> [String] {
  let first =
    zip(expected, actual).enumerated().first { $0.element.0 != $0.element.1 }?.offset
    ?? min(expected.count, actual.count)
  let window = max(0, first - 2)..<(first + 3)
  func show(_ list: [Element]) -> String {
    let slice = list.indices.clamped(to: window.clamped(to: list.indices))
    let shown = slice.map { "\($0 == first ? "→ " : "")\(describe(list[$0]))" }
    let before = slice.lowerBound > 0 ? "…\(slice.lowerBound) before, " : ""
    let after = slice.upperBound < list.count ? ", …\(list.count - slice.upperBound) more" : ""
    return "[\(before)\(shown.joined(separator: ", "))\(after)] (\(list.count))"
  }
  return [
    "  \(label) differ at #\(first + 1):",
    "    expected \(show(expected))",
    "    actual   \(show(actual))",
  ]
}

/// The fields of two values of the same type that differ, as `name: expected X, actual Y`.
func fieldDifferences<Value>(expected: Value, actual: Value) -> String {
  let wanted = Mirror(reflecting: expected).children
  let got = Mirror(reflecting: actual).children
  let differences = zip(wanted, got).compactMap { pair -> String? in
    let (e, a) = pair
    let eText = describeField(e.value)
    let aText = describeField(a.value)
    guard eText != aText else { return nil }
    return "\(e.label ?? "value"): expected \(eText), actual \(aText)"
  }
  return differences.isEmpty ? "\(expected) vs \(actual)" : differences.joined(separator: "; ")
}

/// Strings in quotes, optionals unwrapped (or `nil`), everything else as it describes itself.
private func describeField(_ value: Any) -> String {
  let mirror = Mirror(reflecting: value)
  if mirror.displayStyle == .optional {
    return mirror.children.first.map { describeField($0.value) } ?? "nil"
  }
  if let string = value as? String { return quoted(string) }
  return String(describing: value)
}
