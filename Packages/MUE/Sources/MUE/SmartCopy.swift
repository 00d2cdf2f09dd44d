/// Copies of a state with a few fields changed, readable at the call site: the dependency-free
/// replacement for Unison's generated `copy` functions.
///
/// ```swift
/// struct SearchState: Equatable, SmartCopy {
///   var query = ""
///   var selected: Place?
///   var isLoading = false
/// }
///
/// let next = state.copy { $0.query = text; $0.isLoading = true }
/// let cleared = state.copy(\.selected, nil)  // an optional back to nil
/// ```
///
/// The state stays a value: `copy` returns a new one and leaves the original as it was. Fields
/// are `var`s so a copy can change them; nothing else can, since updates receive the state by
/// value.
public protocol SmartCopy {}

extension SmartCopy {
  /// A copy with the changes `change` makes.
  @inlinable
  public func copy(_ change: (inout Self) throws -> Void) rethrows -> Self {
    var copy = self
    try change(&copy)
    return copy
  }

  /// A copy with one field set to `value`, `nil` included.
  @inlinable
  public func copy<Value>(_ field: WritableKeyPath<Self, Value>, _ value: Value) -> Self {
    var copy = self
    copy[keyPath: field] = value
    return copy
  }
}

/// A state that knows where a screen starts, so a loop can be made without passing one.
public protocol InitialState {
  /// The state a new screen starts from.
  static var initial: Self { get }
}
