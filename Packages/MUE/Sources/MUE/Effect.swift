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
///
/// Made as Unison's cases are: `.single(result)`, `.repeating(stream)`, `.empty`. A test reads
/// one back with ``value``, ``values`` and ``isEmpty``.
public struct EffectResult<Result: Sendable>: Sendable {
  @usableFromInline
  enum Kind: Sendable {
    case single(Result)
    /// In a box: `AsyncStream`'s layout is the concurrency library's to change, so a case that
    /// held one inline made every `EffectResult` a value the compiler copies and destroys
    /// through its type's metadata, looked up each time (about 500 instructions a result).
    case repeating(StreamBox<Result>)
    /// A stream's values transformed (``map(_:)``): the next one, `nil` once the stream ended.
    /// Pulled by the one task that runs the effect, so a function around the stream's iterator
    /// rather than a stream (and a cancellation handler per value) of its own.
    case mapped(@Sendable () async -> Result?)
    case empty
  }

  @usableFromInline let kind: Kind

  @inlinable init(_ kind: Kind) { self.kind = kind }

  /// Results over time, such as ticks; applied in the order they are emitted. The effect runs
  /// until the stream ends or the effect is cancelled, and does not keep the loop busy: a loop
  /// waiting only on streams is idle. The loop is the stream's one consumer.
  @inlinable
  public static func repeating(_ stream: AsyncStream<Result>) -> EffectResult {
    EffectResult(.repeating(StreamBox(stream)))
  }

  /// One result.
  @inlinable
  public static func single(_ result: Result) -> EffectResult { EffectResult(.single(result)) }

  /// No result.
  @inlinable
  public static var empty: EffectResult { EffectResult(.empty) }

  /// The result of ``single(_:)``; `nil` for the other kinds.
  public var value: Result? {
    if case .single(let value) = kind { value } else { nil }
  }

  /// The results of ``repeating(_:)``, as a stream; `nil` for the other kinds. Read it once:
  /// it pulls from the stream the result was made with.
  public var values: AsyncStream<Result>? {
    switch kind {
    case .repeating(let box): box.stream
    case .mapped(let next): AsyncStream(unfolding: next)
    case .single, .empty: nil
    }
  }

  /// Whether this is ``empty``.
  public var isEmpty: Bool {
    if case .empty = kind { true } else { false }
  }
}

/// A stream, held by reference: see `EffectResult.Kind.repeating`.
@usableFromInline
final class StreamBox<Element: Sendable>: Sendable {
  @usableFromInline let stream: AsyncStream<Element>

  @inlinable init(_ stream: AsyncStream<Element>) { self.stream = stream }
}

/// A stream's iterator that one consumer pulls from.
@usableFromInline
final class Pull<Element: Sendable>: @unchecked Sendable {
  // @unchecked: only the task running the effect calls `next()`, one call at a time.
  @usableFromInline var iterator: AsyncStream<Element>.Iterator

  @inlinable init(_ stream: AsyncStream<Element>) { iterator = stream.makeAsyncIterator() }

  @inlinable func next() async -> Element? { await iterator.next() }
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

  /// Runs `effect` at once, on the loop, when it needs no task and has no result — a log line,
  /// an analytics call — and returns `true`; returns `false` for an effect that goes to
  /// ``handle(_:)``. The default runs none at once.
  ///
  /// Called in the order the update listed its effects, after the observers heard of the
  /// state, and never once ``Loop/stop()`` has returned. Keep it short: it holds up the loop.
  /// An effect run at once still supersedes the running effect with its ``Effect/id``. A
  /// handler made of others (a parent's, for its children's effects) forwards this to them.
  func handleNow(_ effect: Effect) -> Bool
}

extension EffectHandler {
  /// Runs no effect at once: every effect goes to ``handle(_:)``.
  @inlinable
  public func handleNow(_ effect: Effect) -> Bool { false }
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
