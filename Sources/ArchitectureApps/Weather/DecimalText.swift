/// Exact decimal arithmetic on the decimal a `Double` was written as, for the one-decimal
/// texts of W7 and W9: `12.25` °C is 54.05 °F exactly, shown as `54.1`, whatever binary floating
/// point makes of `12.25 * 9 / 5 + 32`. Numbers come out in plain decimal notation, never with
/// an exponent and never as `-0.0`.
struct DecimalText: Sendable, Equatable {
  /// Whether the value is below zero (a zero is never negative).
  private var isNegative: Bool
  /// The magnitude's digits, least significant first.
  private var digits: [UInt8]
  /// How many of `digits` are after the decimal point.
  private var scale: Int

  /// The shortest decimal that reads back as `value` (Swift's `description`), exactly.
  init?(_ value: Double) {
    guard value.isFinite else { return nil }
    var text = Substring(value.magnitude.description)
    var exponent = 0
    if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
      exponent = Int(text[text.index(after: e)...]) ?? 0
      text = text[..<e]
    }
    var fraction = 0
    var mostSignificantFirst: [UInt8] = []
    var seenPoint = false
    for character in text {
      if character == "." {
        seenPoint = true
      } else if let digit = character.wholeNumberValue {
        mostSignificantFirst.append(UInt8(digit))
        if seenPoint { fraction += 1 }
      }
    }
    digits = mostSignificantFirst.reversed()
    scale = fraction - exponent
    if scale < 0 {
      digits.insert(contentsOf: repeatElement(0, count: -scale), at: 0)
      scale = 0
    }
    isNegative = value < 0
    normalize()
  }

  private init(isNegative: Bool, digits: [UInt8], scale: Int) {
    self.isNegative = isNegative
    self.digits = digits
    self.scale = scale
    normalize()
  }

  /// `self × 9/5 + 32`: degrees Celsius in Fahrenheit (W9), exactly.
  var celsiusToFahrenheit: DecimalText {
    // × 18 / 10, then + 32 at the same scale.
    var product = Self.multiply(digits, by: 18)
    let newScale = scale + 1
    var thirtyTwo = [UInt8](repeating: 0, count: newScale)
    thirtyTwo += [2, 3]
    if product.isEmpty { product = [0] }
    if !isNegative {
      return DecimalText(isNegative: false, digits: Self.add(product, thirtyTwo), scale: newScale)
    }
    // 32 − |C × 1.8|
    if Self.compare(thirtyTwo, product) >= 0 {
      return DecimalText(
        isNegative: false, digits: Self.subtract(thirtyTwo, product), scale: newScale)
    }
    return DecimalText(isNegative: true, digits: Self.subtract(product, thirtyTwo), scale: newScale)
  }

  /// The value rounded to one decimal, half away from zero, as plain text: `12.3`, `-0.1`, `0.0`.
  var oneDecimal: String {
    var magnitude = digits
    var scale = self.scale
    if scale == 0 {
      magnitude.insert(0, at: 0)
      scale = 1
    }
    if scale > 1 {
      let dropped = scale - 1
      let firstDropped = magnitude[dropped - 1]
      magnitude.removeFirst(dropped)
      if firstDropped >= 5 { magnitude = Self.add(magnitude, [1]) }
    }
    while magnitude.count < 2 { magnitude.append(0) }
    while magnitude.count > 2, magnitude.last == 0 { magnitude.removeLast() }
    let isZero = magnitude.allSatisfy { $0 == 0 }
    let whole = magnitude.dropFirst().reversed().map { Character(String($0)) }
    return (isNegative && !isZero ? "-" : "") + String(whole) + "." + String(magnitude[0])
  }

  /// At least one digit before the point; no zeros in front of it beyond that.
  private mutating func normalize() {
    while digits.count < scale + 1 { digits.append(0) }
    while digits.count > scale + 1, digits.last == 0 { digits.removeLast() }
    if digits.allSatisfy({ $0 == 0 }) { isNegative = false }
  }

  private static func multiply(_ digits: [UInt8], by factor: Int) -> [UInt8] {
    var result: [UInt8] = []
    result.reserveCapacity(digits.count + 3)
    var carry = 0
    for digit in digits {
      let value = Int(digit) * factor + carry
      result.append(UInt8(value % 10))
      carry = value / 10
    }
    while carry > 0 {
      result.append(UInt8(carry % 10))
      carry /= 10
    }
    return result
  }

  private static func add(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
    var result: [UInt8] = []
    var carry = 0
    for index in 0..<max(a.count, b.count) {
      let value =
        (index < a.count ? Int(a[index]) : 0) + (index < b.count ? Int(b[index]) : 0) + carry
      result.append(UInt8(value % 10))
      carry = value / 10
    }
    if carry > 0 { result.append(UInt8(carry)) }
    return result
  }

  /// `a − b` for `a ≥ b`.
  private static func subtract(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
    var result: [UInt8] = []
    var borrow = 0
    for index in 0..<a.count {
      var value = Int(a[index]) - (index < b.count ? Int(b[index]) : 0) - borrow
      borrow = value < 0 ? 1 : 0
      if value < 0 { value += 10 }
      result.append(UInt8(value))
    }
    return result
  }

  private static func compare(_ a: [UInt8], _ b: [UInt8]) -> Int {
    let count = max(a.count, b.count)
    for index in stride(from: count - 1, through: 0, by: -1) {
      let x = index < a.count ? a[index] : 0
      let y = index < b.count ? b[index] : 0
      if x != y { return x < y ? -1 : 1 }
    }
    return 0
  }
}
