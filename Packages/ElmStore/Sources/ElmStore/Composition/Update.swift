/// An update function, as in Elementary: applies an action to the state, in place.
///
/// ```swift
/// let update: Update<Int, CounterAction> = { state, action in
///   if action == .increment { state += 1 }
/// }
/// ```
public typealias Update<State, Action> = @Sendable (inout State, Action) -> Void
