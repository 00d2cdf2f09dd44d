/// A weather service whose calls stay pending until the scenario answers them.
///
/// Cancelling a pending call records `cancelled …`. By default the call then fails with
/// `CancellationError`; a service built with `honorsCancellation: false` keeps the call pending
/// so a scenario can deliver a late answer the app must not apply (R5).
public final class FakeWeatherService: WeatherService {
  private let searches: PendingCalls<[Place]>
  private let forecasts: PendingCalls<Forecast>

  public init(recorder: CallRecorder, honorsCancellation: Bool = true) {
    searches = PendingCalls(recorder: recorder, honorsCancellation: honorsCancellation)
    forecasts = PendingCalls(recorder: recorder, honorsCancellation: honorsCancellation)
  }

  public func search(_ term: String) async throws -> [Place] {
    try await searches.wait(for: .search(term))
  }

  public func forecast(for place: Place) async throws -> Forecast {
    try await forecasts.wait(for: .forecast(placeID: place.id))
  }

  /// Answers the oldest pending search (for `term`, if given).
  ///
  /// - Returns: The term of the search that was answered, or `nil` when none was pending.
  @discardableResult
  public func answerSearch(term: String? = nil, with result: Result<[Place], FakeFailure>)
    -> String?
  {
    let call = searches.answer(result.mapError { $0 as any Error }) { call in
      guard case .search(let pending) = call else { return false }
      return term == nil || term == pending
    }
    guard case .search(let answered)? = call else { return nil }
    return answered
  }

  /// Answers the oldest pending forecast (for `placeID`, if given).
  ///
  /// - Returns: The place id of the forecast that was answered, or `nil` when none was pending.
  @discardableResult
  public func answerForecast(placeID: Int? = nil, with result: Result<Forecast, FakeFailure>)
    -> Int?
  {
    let call = forecasts.answer(result.mapError { $0 as any Error }) { call in
      guard case .forecast(let pending) = call else { return false }
      return placeID == nil || placeID == pending
    }
    guard case .forecast(let answered)? = call else { return nil }
    return answered
  }

  /// The calls waiting for an answer, searches first, each oldest first.
  public var pendingCalls: [EnvironmentCall] { searches.pending + forecasts.pending }

  func abandonPendingCalls() {
    searches.abandonAll()
    forecasts.abandonAll()
  }
}
