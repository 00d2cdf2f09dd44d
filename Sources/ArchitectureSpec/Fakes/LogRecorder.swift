/// A log that records every message as an environment call.
public final class LogRecorder: AppLog {
  private let recorder: CallRecorder

  public init(recorder: CallRecorder) { self.recorder = recorder }

  public func log(_ message: String) { recorder.record(.log(message)) }
}
