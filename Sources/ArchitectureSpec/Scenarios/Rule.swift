/// A numbered rule of the spec. The raw value is the id used in `SPEC.md` and `Docs/Spec.md`.
public enum Rule: String, Codable, Sendable, CaseIterable, Comparable, CustomStringConvertible {
  case r1 = "R1"
  case r2 = "R2"
  case r3 = "R3"
  case r4 = "R4"
  case r5 = "R5"
  case r6 = "R6"
  case r7 = "R7"
  case r8 = "R8"
  case r9 = "R9"
  case r10 = "R10"
  case r11 = "R11"
  case r12 = "R12"
  case c1 = "C1"
  case c2 = "C2"
  case c3 = "C3"
  case c4 = "C4"
  case c5 = "C5"
  case c6 = "C6"
  case c7 = "C7"
  case s1 = "S1"
  case s2 = "S2"
  case s3 = "S3"
  case s4 = "S4"
  case s5 = "S5"
  case s6 = "S6"
  case s7 = "S7"
  case s8 = "S8"
  case w1 = "W1"
  case w2 = "W2"
  case w3 = "W3"
  case w4 = "W4"
  case w5 = "W5"
  case w6 = "W6"
  case w7 = "W7"
  case w8 = "W8"
  case w9 = "W9"
  case w10 = "W10"
  case w11 = "W11"
  case t1 = "T1"
  case t2 = "T2"
  case t3 = "T3"
  case t4 = "T4"
  case t5 = "T5"
  case t6 = "T6"
  case t7 = "T7"
  case h1 = "H1"
  case h2 = "H2"
  case h3 = "H3"
  case h4 = "H4"
  case h5 = "H5"
  case h6 = "H6"

  public var description: String { rawValue }

  /// The rules the conformance scenarios must cover. R2 and R3 are also tested inside each
  /// package; W11 (the live Open-Meteo service) is tested against a local HTTP server.
  public static let coveredByScenarios: [Rule] = allCases.filter { $0 != .w11 }

  public static func < (lhs: Rule, rhs: Rule) -> Bool {
    (allCases.firstIndex(of: lhs) ?? 0) < (allCases.firstIndex(of: rhs) ?? 0)
  }
}
