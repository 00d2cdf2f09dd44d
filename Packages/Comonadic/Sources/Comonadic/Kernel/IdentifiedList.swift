// Vendored from Kernel/Runtime/IdentifiedList.swift by Scripts/vendor-kernel. Do not edit here: edit the source,
// then run the script (CI fails while a copy differs).

/// An ordered list of identified elements with O(1) access by id: the state of a list of
/// child features (each todo row), which a parent lifts its child's update over and observes
/// one element of.
///
/// ```swift
/// var rows = IdentifiedList<Int, Row>()
/// rows.append(Row(title: "Milk"), id: 1)
/// rows[id: 1]?.done = true
/// rows.remove(id: 1)
/// ```
public struct IdentifiedList<ID: Hashable & Sendable, Element: Sendable>: Sendable {
  /// The ids in list order.
  public private(set) var ids: [ID] = []
  private var elements: [ID: Element] = [:]

  public init() {}

  /// A list of `elements` in order, identified by `id`; later duplicates are dropped.
  public init(_ elements: some Sequence<Element>, id: (Element) -> ID) {
    for element in elements { append(element, id: id(element)) }
  }

  /// The number of elements.
  public var count: Int { ids.count }

  /// Whether the list is empty.
  public var isEmpty: Bool { ids.isEmpty }

  /// The elements in list order.
  ///
  /// - Complexity: O(n).
  public var values: [Element] { ids.compactMap { elements[$0] } }

  /// The element with `id`; setting `nil` removes it.
  ///
  /// - Complexity: O(1) to read and to change; O(n) to remove.
  public subscript(id id: ID) -> Element? {
    get { elements[id] }
    set {
      guard let newValue else {
        remove(id: id)
        return
      }
      if elements.updateValue(newValue, forKey: id) == nil { ids.append(id) }
    }
  }

  /// Whether an element has `id`.
  public func contains(id: ID) -> Bool { elements[id] != nil }

  /// Appends `element` under `id`, unless an element has that id already.
  ///
  /// - Returns: Whether it was appended.
  @discardableResult
  public mutating func append(_ element: Element, id: ID) -> Bool {
    guard elements[id] == nil else { return false }
    elements[id] = element
    ids.append(id)
    return true
  }

  /// Removes the element with `id`.
  ///
  /// - Complexity: O(n).
  @discardableResult
  public mutating func remove(id: ID) -> Element? {
    guard let removed = elements.removeValue(forKey: id) else { return nil }
    if let index = ids.firstIndex(of: id) { ids.remove(at: index) }
    return removed
  }

  /// Removes every element that matches.
  ///
  /// - Complexity: O(n).
  public mutating func removeAll(where shouldRemove: (Element) -> Bool) {
    ids.removeAll { id in
      guard let element = elements[id], shouldRemove(element) else { return false }
      elements[id] = nil
      return true
    }
  }

  /// Changes every element in place (in no particular order).
  ///
  /// - Complexity: O(n).
  public mutating func updateAll(_ change: (inout Element) -> Void) {
    for index in elements.values.indices { change(&elements.values[index]) }
  }

  /// Changes the element with `id` in place, without copying it; returns `nil` (and calls
  /// nothing) when no element has that id.
  ///
  /// - Complexity: O(1) plus `change`.
  @discardableResult
  public mutating func update<Result>(
    id: ID, _ change: (inout Element) throws -> Result
  ) rethrows -> Result? {
    guard var element = elements.removeValue(forKey: id) else { return nil }
    defer { elements[id] = element }
    return try change(&element)
  }
}

extension IdentifiedList: Equatable where Element: Equatable {
  public static func == (lhs: IdentifiedList, rhs: IdentifiedList) -> Bool {
    lhs.ids == rhs.ids && lhs.elements == rhs.elements
  }
}
