import Testing

@testable import Kernel

/// The kernel's own hash for its keys (``RunHash``): cheap, and spread well enough that a
/// dictionary keyed by the runtime's numbers does not pile them into a few buckets.
@Suite struct RunHashBehaviour {
  /// The most keys of `values` that share one bucket of a table with `buckets` buckets.
  private func fullestBucket(_ values: some Sequence<Int>, buckets: Int, seed: Int) -> Int {
    var counts = [Int](repeating: 0, count: buckets)
    for value in values { counts[RunHash.mix(value, seed: seed) & (buckets - 1)] += 1 }
    return counts.max() ?? 0
  }

  @Test(arguments: [0, 1, 0x5DEE_CE66, -1])
  func consecutiveNumbersSpreadOverTheTable(seed: Int) {
    // A random hash puts at most 7 or 8 of 2^17 keys in one of 2^17 buckets; a hash that kept
    // the numbers' low bits alone would put 1 in each, and one that used only the high bits all
    // of them in one.
    #expect(fullestBucket(0..<(1 << 17), buckets: 1 << 17, seed: seed) <= 12)
    #expect(fullestBucket(0..<1024, buckets: 1024, seed: seed) <= 10)
  }

  @Test(arguments: [0, 1, 0x5DEE_CE66, -1])
  func numbersThatDifferOnlyHighUpSpreadToo(seed: Int) {
    // Multiples of 2^20: their low bits are all zero, so a product's low bits alone would put
    // every one in bucket `seed`'s.
    let values = (0..<1024).map { $0 << 20 }
    #expect(fullestBucket(values, buckets: 1024, seed: seed) <= 10)
  }

  @Test func theSeedChangesTheHash() {
    #expect(RunHash.mix(42, seed: 1) != RunHash.mix(42, seed: 2))
    #expect(RunHash.mix(42, seed: 1) == RunHash.mix(42, seed: 1))
  }

  @Test func keysHashedByRunHashWorkAsDictionaryKeys() {
    var runs: [RunNumber: String] = [:]
    for number in 0..<10_000 { runs[RunNumber(number)] = "run \(number)" }
    #expect(runs.count == 10_000)
    #expect(runs[RunNumber(4_242)] == "run 4242")
    #expect(runs[RunNumber(10_000)] == nil)
  }

  @Test func aRegistryFindsItsRunsByTheirNumbers() {
    var registry = RunRegistry<Int>()
    let keyed = registry.start(.id(7), isFinite: true)?.run
    let anonymous = registry.start(nil, isFinite: false)?.run
    guard let keyed, let anonymous else {
      Issue.record("the registry started nothing")
      return
    }
    #expect(registry.isLive(keyed) && registry.isLive(anonymous))
    #expect(registry.isRunning(7))
    let attached = registry.attach(Task {}, to: keyed)
    #expect(attached)
    let finished = registry.finish(keyed)
    #expect(finished == .id(7))
    #expect(!registry.isLive(keyed))
    let attachedLate = registry.attach(Task {}, to: keyed)
    #expect(!attachedLate)
    #expect(registry.count == 1)
  }
}
