import ArchitectureSpec
import Testing

/// Numbers on screen (SPEC "Characters and numbers", W7, W9): exact decimal rounding, plain
/// digits, never an exponent, never `-0.0`.
@Suite("Number texts")
struct NumberTextTests {
  @Test(arguments: [
    (12.25, "12.3"), (-12.25, "-12.3"), (0.05, "0.1"), (-0.05, "-0.1"), (-0.04, "0.0"),
    (-0.0, "0.0"), (0.0, "0.0"), (1e-7, "0.0"), (-1e-7, "0.0"), (1e20, "100000000000000000000.0"),
    (12.3, "12.3"), (0.15, "0.2"), (2.675, "2.7"), (1.25, "1.3"), (-1.25, "-1.3"),
    (99.95, "100.0"), (10.5, "10.5"), (3.25, "3.3"), (123_456_789.05, "123456789.1"),
  ])
  func oneDecimalRoundsHalfAwayFromZeroExactly(_ value: Double, _ text: String) {
    #expect(WeatherApp.oneDecimal(value) == text)
  }

  @Test(arguments: [
    (12.25, "54.1"), (0.0, "32.0"), (-17.75, "0.1"), (-40.0, "-40.0"), (37.0, "98.6"),
    (-17.8, "0.0"), (-17.7777, "0.0"), (0.25, "32.5"), (1e-7, "32.0"), (-100.0, "-148.0"),
    (100.0, "212.0"), (-0.05, "31.9"), (21.75, "71.2"), (-18.25, "-0.9"),
    (1e20, "180000000000000000032.0"),
  ])
  func fahrenheitIsExactDecimal(_ celsius: Double, _ text: String) {
    #expect(WeatherApp.fahrenheitText(celsius: celsius) == text)
  }

  @Test(arguments: [
    (1, "1 item left"), (0, "0 items left"), (2, "2 items left"), (10, "10 items left"),
    (9_999, "9999 items left"), (100_000, "100000 items left"), (-3, "-3 items left"),
    (Int.max, "9223372036854775807 items left"), (Int.min, "-9223372036854775808 items left"),
  ])
  func itemsLeftIsPlainDigits(_ count: Int, _ text: String) {
    #expect(TodosApp.itemsLeftText(count) == text)
  }
}
