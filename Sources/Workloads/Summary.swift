/// The median of repeated measurements and a distribution-free 95% interval around it.
public struct Summary: Sendable, Hashable, Codable {
  /// The middle sample.
  public var median: Double
  /// The lower end of the 95% confidence interval of the median.
  public var low: Double
  /// The upper end of the 95% confidence interval of the median.
  public var high: Double
  /// How many samples it summarizes.
  public var samples: Int

  /// Summarizes `values`, which must not be empty.
  ///
  /// The interval is the order-statistics interval of the median: the samples ranked
  /// n/2 ± 1.96·√n/2, so it needs no assumption about the distribution of the noise.
  ///
  /// - Complexity: O(*n* log *n*) for *n* values.
  public init(_ values: [Double]) {
    precondition(!values.isEmpty, "Summary needs at least one value; measure before summarizing.")
    let sorted = values.sorted()
    let count = sorted.count
    median =
      count.isMultiple(of: 2)
      ? (sorted[count / 2 - 1] + sorted[count / 2]) / 2 : sorted[count / 2]
    let half = Double(count) / 2
    let spread = 1.96 * Double(count).squareRoot() / 2
    let lowRank = max(1, Int((half - spread).rounded()))
    let highRank = min(count, Int((half + 1 + spread).rounded()))
    low = sorted[lowRank - 1]
    high = sorted[highRank - 1]
    samples = count
  }
}
