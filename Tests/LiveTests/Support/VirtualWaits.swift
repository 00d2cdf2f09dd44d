import ArchitectureSpec
import Console

extension ConsoleSession {
  /// Waits by advancing `clock`, one due sleeper at a time, settling the runtime after each, so
  /// a script runs in virtual time (as the conformance kit's `advance` step does).
  public static func advancing(_ clock: VirtualClock) -> Wait {
    { duration, settle in
      let target = clock.now.advanced(by: duration)
      while clock.wakeNext(notAfter: target) { await settle() }
      clock.move(to: target)
    }
  }
}
