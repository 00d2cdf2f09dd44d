import Foundation

/// Open-Meteo responses kept in the binary, for running the weather app offline
/// (`arch run weather --weather fixtures`) through ``OpenMeteoService``'s decoding.
///
/// Searches match a whole term, ignoring case: `berlin`, `london`, `paris`, `zürich`,
/// `são paulo`, `tokyo` or `東京`. Any other term gets Open-Meteo's answer for no match (a body
/// without `results`), and the term `error` gets an HTTP 500, so every screen of the app can be
/// seen without a network. Forecasts exist for the coordinates of those places.
///
/// The bodies are in the shape Open-Meteo's documentation gives (fields the app does not read
/// included); the values are plausible, not live.
public struct RecordedOpenMeteo: HTTPTransport {
  public init() {}

  public func get(_ url: URL) async throws -> HTTPResponse {
    try Task.checkCancellation()
    let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
    let items = components?.queryItems ?? []
    func value(_ name: String) -> String? { items.first { $0.name == name }?.value }
    let path = components?.path ?? ""
    if path.hasSuffix("/v1/search"), let name = value("name") {
      return search(name.lowercased())
    }
    if path.hasSuffix("/v1/forecast"), let latitude = value("latitude"),
      let longitude = value("longitude")
    {
      return forecast(latitude: latitude, longitude: longitude)
    }
    return HTTPResponse(
      status: 404, body: Data(#"{"error":true,"reason":"Not Found"}"#.utf8))
  }

  private func search(_ term: String) -> HTTPResponse {
    if term == "error" {
      return HTTPResponse(
        status: 500, body: Data(#"{"error":true,"reason":"Internal Server Error"}"#.utf8))
    }
    let places = Self.places.filter { $0.terms.contains(term) }
    guard !places.isEmpty else {
      return HTTPResponse(status: 200, body: Data(#"{"generationtime_ms":0.41604042}"#.utf8))
    }
    let results = places.map(\.result).joined(separator: ",")
    return HTTPResponse(
      status: 200, body: Data(#"{"results":[\#(results)],"generationtime_ms":0.9870529}"#.utf8))
  }

  private func forecast(latitude: String, longitude: String) -> HTTPResponse {
    guard
      let place = Self.places.first(where: {
        OpenMeteoService.coordinate($0.latitude) == latitude
          && OpenMeteoService.coordinate($0.longitude) == longitude
      })
    else {
      return HTTPResponse(
        status: 400,
        body: Data(#"{"error":true,"reason":"No recorded forecast for this place"}"#.utf8))
    }
    let body = #"""
      {"latitude":\#(place.latitude),"longitude":\#(place.longitude),"generationtime_ms":0.0331401,\#
      "utc_offset_seconds":0,"timezone":"GMT","timezone_abbreviation":"GMT","elevation":\#(place.elevation),\#
      "current_units":{"time":"iso8601","interval":"seconds","temperature_2m":"°C",\#
      "weather_code":"wmo code","wind_speed_10m":"km/h"},\#
      "current":{"time":"2026-11-21T12:00","interval":900,"temperature_2m":\#(place.temperature),\#
      "weather_code":\#(place.weatherCode),"wind_speed_10m":\#(place.windSpeed)}}
      """#
    return HTTPResponse(status: 200, body: Data(body.utf8))
  }

  private struct RecordedPlace {
    var terms: Set<String>
    var id: Int
    var name: String
    var country: String
    var countryCode: String
    var latitude: Double
    var longitude: Double
    var elevation: Double
    var temperature: Double
    var weatherCode: Int
    var windSpeed: Double

    var result: String {
      #"{"id":\#(id),"name":"\#(name)","latitude":\#(latitude),"longitude":\#(longitude),"#
        + #""elevation":\#(elevation),"feature_code":"PPLC","country_code":"\#(countryCode)","#
        + #""timezone":"Etc/UTC","country":"\#(country)"}"#
    }
  }

  private static let places: [RecordedPlace] = [
    RecordedPlace(
      terms: ["berlin"], id: 2_950_159, name: "Berlin", country: "Germany", countryCode: "DE",
      latitude: 52.52437, longitude: 13.41053, elevation: 74, temperature: 12.3, weatherCode: 2,
      windSpeed: 10.5),
    RecordedPlace(
      terms: ["berlin"], id: 5_083_330, name: "Berlin", country: "United States",
      countryCode: "US", latitude: 44.46867, longitude: -71.18508, elevation: 311,
      temperature: -3.4, weatherCode: 71, windSpeed: 6.1),
    RecordedPlace(
      terms: ["london"], id: 2_643_743, name: "London", country: "United Kingdom",
      countryCode: "GB", latitude: 51.50853, longitude: -0.12574, elevation: 25,
      temperature: 9.8, weatherCode: 61, windSpeed: 18.4),
    RecordedPlace(
      terms: ["london"], id: 6_058_560, name: "London", country: "Canada", countryCode: "CA",
      latitude: 42.98339, longitude: -81.23304, elevation: 252, temperature: 1.2,
      weatherCode: 3, windSpeed: 14.0),
    RecordedPlace(
      terms: ["paris"], id: 2_988_507, name: "Paris", country: "France", countryCode: "FR",
      latitude: 48.85341, longitude: 2.3488, elevation: 42, temperature: 11.05, weatherCode: 45,
      windSpeed: 7.25),
    RecordedPlace(
      terms: ["zürich", "zurich"], id: 2_657_896, name: "Zürich", country: "Switzerland",
      countryCode: "CH", latitude: 47.36667, longitude: 8.55, elevation: 429, temperature: 4.6,
      weatherCode: 0, windSpeed: 3.2),
    RecordedPlace(
      terms: ["são paulo", "sao paulo"], id: 3_448_439, name: "São Paulo", country: "Brazil",
      countryCode: "BR", latitude: -23.5475, longitude: -46.63611, elevation: 769,
      temperature: 24.9, weatherCode: 95, windSpeed: 12.6),
    RecordedPlace(
      terms: ["tokyo", "東京"], id: 1_850_147, name: "Tokyo", country: "Japan", countryCode: "JP",
      latitude: 35.6895, longitude: 139.69171, elevation: 44, temperature: 15.0, weatherCode: 1,
      windSpeed: 9.0),
  ]
}
