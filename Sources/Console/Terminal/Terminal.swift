#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why the interactive screen cannot run.
public enum TerminalError: Error, Hashable, CustomStringConvertible {
  /// Standard input is not a terminal (a pipe, a file, CI): keys cannot be read one at a time.
  case inputIsNotATerminal
  /// Standard output is not a terminal: the screen cannot be redrawn in place.
  case outputIsNotATerminal

  public var description: String {
    switch self {
    case .inputIsNotATerminal:
      "standard input is not a terminal, so keys cannot be read one at a time. "
        + "Run it in a terminal, or pass the keys as a script: --keys \"++-\""
    case .outputIsNotATerminal:
      "standard output is not a terminal, so the screen cannot be redrawn in place. "
        + "Run it in a terminal, or pass the keys as a script to print every screen: --keys \"++-\""
    }
  }
}

/// The signals after which the terminal is restored: the user's (INT, TERM, HUP, QUIT) and a
/// crash's (a Swift trap is SIGILL or SIGTRAP; ABRT, SEGV, BUS).
private let restoredSignals = [
  SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS,
]

/// The terminal's settings before raw mode, for the signal handler. Written once, before the
/// handler is installed, and only read afterwards.
nonisolated(unsafe) private var savedSettings = termios()

/// Restores the terminal, then lets the signal do what it does by default (end the process,
/// with a core dump for a crash); runs in a signal handler, so only async-signal-safe calls.
private func restoreAndRaise(_ number: Int32) {
  _ = tcsetattr(STDIN_FILENO, TCSANOW, &savedSettings)
  let text: StaticString = "\u{1B}[?2004l\u{1B}[?25h\n"
  _ = write(STDOUT_FILENO, text.utf8Start, text.utf8CodeUnitCount)
  _ = signal(number, SIG_DFL)
  _ = raise(number)
}

/// The terminal in raw mode: keys arrive one at a time, unechoed; the cursor is hidden.
///
/// ``restore()`` puts everything back; so do SIGINT, SIGTERM and SIGHUP while raw mode is on.
final class RawTerminal: Sendable {
  private let original: termios

  /// Switches standard input to raw mode.
  ///
  /// - Throws: ``TerminalError`` when standard input or output is not a terminal.
  init() throws(TerminalError) {
    var settings = termios()
    guard isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &settings) == 0 else {
      throw .inputIsNotATerminal
    }
    guard isatty(STDOUT_FILENO) == 1 else { throw .outputIsNotATerminal }
    original = settings
    savedSettings = settings
    for number in restoredSignals {
      _ = signal(number) { restoreAndRaise($0) }
    }
    // No line buffering, no echo, no signals from Ctrl-C (it arrives as a key), reads return
    // at once.
    settings.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
    settings.c_iflag &= ~tcflag_t(IXON | ICRNL)
    withUnsafeMutableBytes(of: &settings.c_cc) { cc in
      cc[Int(VMIN)] = 0
      cc[Int(VTIME)] = 0
    }
    _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &settings)
    // Hide the cursor; ask for pasted text to come bracketed, so it is never taken for keys.
    output("\u{1B}[?25l\u{1B}[?2004h")
  }

  /// Puts the terminal back as it was and shows the cursor.
  func restore() {
    var settings = original
    _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &settings)
    output("\u{1B}[?2004l\u{1B}[?25h")
    for number in restoredSignals {
      _ = signal(number, SIG_DFL)
    }
  }

  /// The terminal's width in columns (80 when unknown).
  var columns: Int {
    var size = winsize()
    guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
    return Int(size.ws_col)
  }

  /// The terminal's height in rows (24 when unknown).
  var rows: Int {
    var size = winsize()
    guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 else { return 24 }
    return Int(size.ws_row)
  }

  /// Writes `text` to standard output, all of it.
  func output(_ text: String) {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let count = bytes.withUnsafeMutableBytes {
        write(STDOUT_FILENO, $0.baseAddress! + offset, $0.count - offset)
      }
      if count < 0 {
        if errno == EINTR { continue }
        return
      }
      offset += count
    }
  }

  /// Waits up to `milliseconds` for input and returns what arrived (empty on timeout), or `nil`
  /// at end of input.
  func input(waitingUpTo milliseconds: Int32) -> [UInt8]? {
    var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
    let ready = poll(&descriptor, 1, milliseconds)
    guard ready > 0 else { return [] }
    var buffer = [UInt8](repeating: 0, count: 256)
    let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
    if count < 0 { return errno == EINTR || errno == EAGAIN ? [] : nil }
    if count == 0 { return nil }
    return Array(buffer[..<count])
  }
}
