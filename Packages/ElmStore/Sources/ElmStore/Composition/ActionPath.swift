/// How a parent's action carries a child's: embed a child action, extract it back (a prism, as
/// Elm's message constructors and TCA's case paths are).
///
/// ```swift
/// enum ShellAction { case counter(CounterAction), stopwatch(StopwatchAction) }
///
/// let counter = ActionPath<ShellAction, CounterAction>(
///   embed: ShellAction.counter,
///   extract: { if case .counter(let action) = $0 { action } else { nil } })
/// ```
public struct ActionPath<Parent: Sendable, Child: Sendable>: Sendable {
  /// The parent action that carries `child`.
  public let embed: @Sendable (Child) -> Parent
  /// The child action a parent action carries, if it carries one.
  public let extract: @Sendable (Parent) -> Child?

  public init(
    embed: @escaping @Sendable (Child) -> Parent,
    extract: @escaping @Sendable (Parent) -> Child?
  ) {
    self.embed = embed
    self.extract = extract
  }
}
