/// A side effect, described as data: what to do, and the type of result it feeds back.
///
/// ```swift
/// enum WeatherEffect: Effect, Equatable {
///   case search(String)
///   case forecast(Place)
///
///   enum Result: Sendable {
///     case searched([Place]), searchFailed
///     case forecasted(Forecast), forecastFailed
///   }
///
///   enum ID: Hashable, Sendable { case search, forecast }
///   var id: ID? {
///     switch self {
///     case .search: .search
///     case .forecast: .forecast
///     }
///   }
/// }
/// ```
///
/// Give effects an ``id`` to make them cancellable: starting an effect cancels the running one
/// with the same id (the latest wins), and ``UpdateResult/cancelling(_:)`` cancels by id. A
/// cancelled effect's results are dropped, even if its handler ignores cancellation.
public protocol Effect: Sendable {
  /// What the effect feeds back to ``Update/handle(result:_:)``.
  associatedtype Result: Sendable
  /// What identifies a cancellable effect; `Never` (the default) when none is.
  associatedtype ID: Hashable & Sendable = Never

  /// This effect's identity, or `nil` for an effect that runs alongside any other.
  var id: ID? { get }
}

extension Effect where ID == Never {
  /// Effects without an id type run independently and are cancelled only when the loop stops.
  public var id: Never? { nil }
}

/// What an ``EffectHandler`` returns: one result, a stream of them, or none.
public enum EffectResult<Result: Sendable>: Sendable {
  /// Results over time, such as ticks; applied in the order they are emitted. The effect runs
  /// until the stream ends or the effect is cancelled, and does not keep the loop busy: a loop
  /// waiting only on streams is idle.
  case repeating(AsyncStream<Result>)
  /// One result.
  case single(Result)
  /// No result.
  case empty
}

/// Runs effects: the only imperative code of an app. It turns each effect into results, which
/// the loop feeds back to the update.
///
/// ```swift
/// struct CounterEffects: EffectHandler {
///   let storage: any CounterStorage
///
///   func handle(_ effect: CounterEffect) async -> EffectResult<CounterEffect.Result> {
///     switch effect {
///     case .save(let count):
///       do {
///         try await storage.save(count)
///         return .single(.saved(count))
///       } catch {
///         return .single(.saveFailed)
///       }
///     }
///   }
/// }
/// ```
///
/// A failure should become a result the update handles; nothing is swallowed. Handlers run as
/// tasks on the loop's executor and are cancelled when their effect is superseded or the loop
/// stops.
public protocol EffectHandler<Effect>: Sendable {
  /// The effects this handler runs.
  associatedtype Effect: MUE.Effect

  /// Runs `effect` and returns its results.
  func handle(_ effect: Effect) async -> EffectResult<Effect.Result>
}

/// An effect handler made of a closure, for small apps and tests.
public struct HandleEffects<Effect: MUE.Effect>: EffectHandler {
  @usableFromInline let body: @Sendable (Effect) async -> EffectResult<Effect.Result>

  /// A handler that runs `body` for each effect.
  public init(_ body: @escaping @Sendable (Effect) async -> EffectResult<Effect.Result>) {
    self.body = body
  }

  @inlinable
  public func handle(_ effect: Effect) async -> EffectResult<Effect.Result> { await body(effect) }
}

/// An effect type for loops that start none: it has no public initializer.
public struct NoEffect: Effect, Hashable {
  public typealias Result = Never
  private init() {}
}

extension HandleEffects where Effect == NoEffect {
  /// The handler of a loop without effects.
  public static var none: Self { Self { _ in .empty } }
}
