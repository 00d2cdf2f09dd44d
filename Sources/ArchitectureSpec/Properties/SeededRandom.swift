/// A small, fast, seedable random number generator (SplitMix64), so a program is reproducible
/// from its seed on every platform.
public struct SeededRandom: RandomNumberGenerator, Sendable {
  private var state: UInt64

  public init(seed: UInt64) { state = seed }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// Picks an element, each with the given weight.
  public mutating func pick<Element>(_ choices: [(weight: Int, element: Element)]) -> Element {
    let total = choices.reduce(0) { $0 + $1.weight }
    var roll = Int.random(in: 0..<max(total, 1), using: &self)
    for choice in choices {
      if roll < choice.weight { return choice.element }
      roll -= choice.weight
    }
    return choices[choices.count - 1].element
  }
}
