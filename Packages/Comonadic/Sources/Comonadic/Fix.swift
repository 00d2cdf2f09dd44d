postfix operator ^

/// Bow's "fix": the value itself. Bow Arch code writes `.modify { … }^` to turn a higher-kinded
/// value back into its type; here every value already has its type, so `^` changes nothing and
/// such code compiles unchanged.
@inlinable
public postfix func ^ <S, A>(_ action: State<S, A>) -> State<S, A> { action }

/// Bow's "fix" for effects: the effect itself (see ``^(_:)-(State<S,A>)``).
@inlinable
public postfix func ^ <Environment, Focus, Action>(
  _ effect: Effect<Environment, Focus, Action>
) -> Effect<Environment, Focus, Action> { effect }
