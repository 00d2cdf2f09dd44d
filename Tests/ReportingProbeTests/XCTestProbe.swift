import XCTest

// Only XCTest is imported here: the tools' signatures must compile without Swift Testing.
final class XCTestProbe: XCTestCase {
  override func setUpWithError() throws {
    try XCTSkipUnless(isReportingProbe, "run by Scripts/reporting-probe.sh")
  }

  func testElmStore() async { await wrongTestStore() }
  func testElmStoreDismissal() async { await wrongDismissal() }
  func testMUE() { wrongUpdateSpec() }
  func testMUEDismissal() { wrongLoopDismissal() }
  func testIOLoop() { wrongStepper() }
  func testLayerCore() async { await wrongCoreHarness() }
  func testLayerCoreDismissal() async { await wrongCoreDismissal() }
  func testComonadic() { wrongTestDispatcher() }
  func testComonadicDismissal() { wrongDispatcherDismissal() }
  func testKit() { wrongConformance() }
}
