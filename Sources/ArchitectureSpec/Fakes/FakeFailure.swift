/// The error the fakes throw when a scenario scripts a failure.
public struct FakeFailure: Error, Hashable, Sendable, CustomStringConvertible {
  public var reason: String

  public init(_ reason: String = "scripted failure") { self.reason = reason }

  public var description: String { reason }
}
