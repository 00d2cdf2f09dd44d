import Testing

@Suite(.enabled(if: isReportingProbe, "run by Scripts/reporting-probe.sh"))
struct SwiftTestingProbe {
  @Test func elmStore() async { await wrongTestStore() }
  @Test func elmStoreDismissal() async { await wrongDismissal() }
  @Test func mue() { wrongUpdateSpec() }
  @Test func mueDismissal() { wrongLoopDismissal() }
  @Test func ioLoop() { wrongStepper() }
  @Test func layerCore() async { await wrongCoreHarness() }
  @Test func layerCoreDismissal() async { await wrongCoreDismissal() }
  @Test func comonadic() { wrongTestDispatcher() }
  @Test func comonadicDismissal() { wrongDispatcherDismissal() }
  @Test func kit() { wrongConformance() }
}
