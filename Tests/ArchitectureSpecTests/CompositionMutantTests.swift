import ArchitectureSpec
import Baseline
import Testing

/// Plausible wrong implementations of the todos list and the shell, each switched on in the
/// baseline. The suite must catch every one: a named scenario fails with a readable message,
/// and so does the whole scenario list.
@Suite("Composition mutants are caught")
struct CompositionMutantTests {
  struct Mutant: Sendable, CustomTestStringConvertible {
    var name: String
    var defects: BaselineDefects
    /// A scenario that catches it, and a part of the message it reports.
    var scenario: String
    var message: String
    var testDescription: String { name }
  }

  static let todos: [Mutant] = [
    Mutant(
      name: "overlapping saves", defects: .overlapsSaves,
      scenario: "t7.one-save-at-a-time-then-the-latest",
      message: "calls differ at #3"),
    Mutant(
      name: "lost coalesced save", defects: .dropsCoalescedSave,
      scenario: "t7.one-save-at-a-time-then-the-latest",
      message: "expected [→ saveTodos([1 \"Milk\" ✓, 3 \"Bread\" ✓])] (1)"),
    Mutant(
      name: "toggle-all of the visible rows only", defects: .togglesVisibleRowsOnly,
      scenario: "t5.toggle-all-acts-on-hidden-rows",
      message: "view differs"),
    Mutant(
      name: "a row observer called on another row's change", defects: .notifiesEveryChild,
      scenario: "r11.row-observer-sees-only-its-row",
      message: "child views differ"),
    Mutant(
      name: "a removed row's observer never told", defects: .forgetsRemovedRows,
      scenario: "r11.removed-row-is-told-once",
      message: "expected [→ gone] (1)"),
  ]

  static let shell: [Mutant] = [
    Mutant(
      name: "a lap-increment delivered as a second message", defects: .incrementsAfterLap,
      scenario: "h4.lap-increments-the-counter-in-one-view",
      message: "views differ"),
    Mutant(
      name: "resetAll as several messages", defects: .resetsChildByChild,
      scenario: "h5.reset-all-in-one-message",
      message: "views differ"),
    Mutant(
      name: "a hidden tab that pauses", defects: .pausesHiddenTabs,
      scenario: "h3.hidden-children-go-on",
      message: "child views differ"),
    Mutant(
      name: "a shell child observer called on another child's change",
      defects: .notifiesEveryChild, scenario: "r11.child-observers-see-only-their-child",
      message: "child views differ"),
  ]

  @Test(arguments: todos)
  func todosMutant(_ mutant: Mutant) async throws {
    try await expectCaught(
      Implementation<TodosApp>.baseline(defects: mutant.defects), reference: .baseline, mutant)
  }

  @Test(arguments: shell)
  func shellMutant(_ mutant: Mutant) async throws {
    try await expectCaught(
      Implementation<ShellApp>.baseline(defects: mutant.defects), reference: .baseline, mutant)
  }

  func expectCaught<App: ConformanceApp>(
    _ implementation: Implementation<App>, reference: Implementation<App>, _ mutant: Mutant
  ) async throws {
    let scenario = try #require(App.scenarios.first { $0.name == mutant.scenario })
    let failures = await Conformance.check(
      scenario, implementation: implementation, reference: reference)
    let text = failures.map(\.message).joined(separator: "\n---\n")
    #expect(
      text.contains(mutant.message),
      "\(mutant.name): expected a failure containing \(mutant.message); got:\n\(text)")
  }
}
