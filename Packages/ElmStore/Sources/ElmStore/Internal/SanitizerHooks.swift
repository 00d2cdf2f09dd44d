#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// ThreadSanitizer's annotation functions, when the process runs under it; otherwise `nil`.
///
/// `Synchronization.Mutex` locks with raw futex calls on Linux, which ThreadSanitizer does not
/// see, so it reports the state a `Mutex` guards as raced. A store tells it about each critical
/// section by address: acquire after locking, release before unlocking. Without the sanitizer
/// the two pointers are `nil` and cost a compare each.
@usableFromInline
struct SanitizerHooks: Sendable {
  @usableFromInline typealias Annotation = @convention(c) (UnsafeMutableRawPointer?) -> Void

  @usableFromInline let acquire: Annotation?
  @usableFromInline let release: Annotation?

  /// The hooks of this process, looked up once.
  @usableFromInline static let current = SanitizerHooks()

  private init() {
    acquire = Self.lookUp("__tsan_acquire")
    release = Self.lookUp("__tsan_release")
  }

  private static func lookUp(_ name: String) -> Annotation? {
    #if canImport(Glibc)
      let handle: UnsafeMutableRawPointer? = nil  // RTLD_DEFAULT
    #else
      let handle = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
    #endif
    guard let symbol = dlsym(handle, name) else { return nil }
    return unsafeBitCast(symbol, to: Annotation.self)
  }
}
