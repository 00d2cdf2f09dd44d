// Vendored from Kernel/Testing/TestFailure.swift by Scripts/vendor-kernel. Do not edit here: edit the source,
// then run the script (CI fails while a copy differs).

import Foundation

#if canImport(Testing)
  import Testing
#endif
#if canImport(XCTest)
  import XCTest
#endif

/// Where a test tool was called from, as its default arguments capture it
/// (`fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
/// column: UInt = #column`), so a failure points at the test's line, not the tool's.
///
/// Plain literals rather than Swift Testing's `SourceLocation`, so a tool's signature compiles
/// in a file that imports only XCTest.
struct CallSite: Sendable {
  var fileID: StaticString
  var filePath: StaticString
  var line: UInt
  var column: UInt
}

/// Fails the running test with `message`, at `site`: a Swift Testing issue inside a Swift
/// Testing test, an XCTest failure inside an XCTest case, and a line on standard error anywhere
/// else (a tool used outside a test still says what went wrong).
///
/// Each framework ignores the other's reports (an `Issue.record` in an XCTest case, or an
/// `XCTFail` in a `@Test`, passes silently), so the report goes to the one running the test.
func reportFailure(_ message: String, at site: CallSite) {
  #if canImport(Testing)
    if Test.current != nil {
      let location = SourceLocation(
        fileID: "\(site.fileID)", filePath: "\(site.filePath)", line: Int(site.line),
        column: Int(site.column))
      Issue.record(Comment(rawValue: message), sourceLocation: location)
      return
    }
  #endif
  #if canImport(XCTest)
    if TestRun.isXCTest {
      XCTFail(message, file: site.filePath, line: site.line)
      return
    }
  #endif
  let line = "\(site.filePath):\(site.line): error: \(message)\n"
  FileHandle.standardError.write(Data(line.utf8))
}

/// What kind of test run this process is.
enum TestRun {
  /// Whether this process runs XCTest cases: the `xctest` runner (Apple platforms, or an
  /// Xcode test host), or a `.xctest` test binary on Linux that was not asked to run Swift
  /// Testing instead.
  static let isXCTest: Bool = {
    let process = ProcessInfo.processInfo
    let environment = process.environment
    if environment["XCTestConfigurationFilePath"] != nil || environment["XCTestBundlePath"] != nil
      || environment["XCTestSessionIdentifier"] != nil
    {
      return true
    }
    let arguments = process.arguments
    guard let executable = arguments.first else { return false }
    if executable.hasSuffix("/xctest") { return true }
    return executable.hasSuffix(".xctest") && !arguments.contains("--testing-library")
  }()
}
