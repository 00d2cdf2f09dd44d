extension TodosApp {
  public static var scenarios: [Scenario<TodosApp>] { todosScenarios }

  /// A random program: intents (root and through row scopes), saves held and answered, rows
  /// observed; some programs start from a list of 10,000 rows.
  public static func randomProgram(using random: inout SeededRandom) -> Scenario<TodosApp> {
    let large = random.pick([(5, false), (1, true)])
    let records: [TodoRecord] =
      large
      ? (1...10_000).map { TodoRecord(id: $0, title: "Task \($0)", done: $0 % 3 == 0) }
      : (0..<Int.random(in: 0...4, using: &random)).map {
        TodoRecord(id: ($0 + 1) * 2, title: "Item \($0 + 1)", done: $0 % 2 == 1)
      }
    let load = random.pick([
      (6, FakeTodoStorage.LoadScript.value(records)), (1, .value(nil)), (1, .failure),
      (1, .pending), (1, .value([TodoRecord(id: 0, title: "bad", done: false)])),
    ])
    let maxID = (records.map(\.id).max() ?? 0) + 4
    func id(_ random: inout SeededRandom) -> Int { Int.random(in: 1...maxID, using: &random) }
    let drafts = ["milk", "  eggs  ", "", "   ", "bread\u{200B}", "x"]
    let edits = ["renamed", "", "  spaced  ", "Item 1"]
    var steps: [Step<TodosApp>] = []
    for _ in 0..<Int.random(in: 1...28, using: &random) {
      let row = id(&random)
      let draft = drafts.randomElement(using: &random) ?? ""
      let edit = edits.randomElement(using: &random) ?? ""
      let filter = TodoFilter.allCases.randomElement(using: &random) ?? .all
      let rowIntent = random.pick([
        (3, TodoRowIntent.toggle), (2, .delete), (2, .beginEdit), (2, .editChanged(edit)),
        (2, .commitEdit), (1, .cancelEdit),
      ])
      steps.append(
        random.pick([
          (4, .send(.draftChanged(draft))), (4, .send(.add)), (2, .send(.toggleAll)),
          (2, .send(.clearCompleted)), (2, .send(.filter(filter))),
          (5, .send(.row(id: row, rowIntent))), (3, .sendToChild(row, rowIntent)),
          (2, .observe(row)), (1, .holdSaves), (1, .releaseSaves),
          (2, .answerSave(failing: false)), (1, .answerSave(failing: true)), (1, .failNextSave),
          (1, .completeLoad(.value(records))),
          (1, .sendFromObserver(.row(id: row, .toggle), then: .add, times: 2)),
        ]))
    }
    if random.pick([(5, false), (1, true)]) { steps += [.stop, .send(.add)] }
    let observed = (0..<Int.random(in: 0...3, using: &random)).map { _ in id(&random) }
    return Scenario(
      "random todos program", rules: [],
      setup: TodosSetup(load: load, holdsSaves: random.pick([(3, false), (1, true)])),
      observing: Array(Set(observed)).sorted(), steps: steps)
  }
}

private func record(_ id: Int, _ title: String, done: Bool = false) -> TodoRecord {
  TodoRecord(id: id, title: title, done: done)
}

private func row(_ id: Int, _ title: String, done: Bool = false, editing: String? = nil)
  -> TodoRowView?
{
  TodoRowView(id: id, title: title, done: done, isEditing: editing != nil, editText: editing ?? "")
}

/// The view of `list`, computed the way T6 says.
private func ready(
  _ list: [TodoRecord], filter: TodoFilter = .all, draft: String = "", editing: Int? = nil
) -> TodosView {
  let done = list.filter(\.done).count
  return TodosView(
    status: .ready, draft: draft,
    visibleIDs: list.filter { filter.shows(done: $0.done) }.map(\.id),
    itemsLeftText: TodosApp.itemsLeftText(list.count - done), filter: filter,
    allDone: !list.isEmpty && done == list.count, canToggleAll: !list.isEmpty,
    canClearCompleted: done > 0, editingID: editing)
}

private let milk = record(1, "Milk")
private let eggs = record(2, "Eggs")
private let bread = record(3, "Bread", done: true)
private let three = [milk, eggs, bread]
private let unreadable = EnvironmentCall.log(TodosApp.unreadableTodosMessage)
private let saveFailed = EnvironmentCall.log(TodosApp.saveFailedMessage)

private func saved(_ list: [TodoRecord]) -> EnvironmentCall { .saveTodos(list) }

private func toggled(_ list: [TodoRecord], _ id: Int) -> [TodoRecord] {
  list.map { $0.id == id ? record($0.id, $0.title, done: !$0.done) : $0 }
}

private func add(_ title: String) -> [Step<TodosApp>] {
  [.send(.draftChanged(title)), .send(.add)]
}

private let todosScenarios: [Scenario<TodosApp>] =
  loadScenarios + addScenarios + rowScenarios + editScenarios + listScenarios + saveScenarios
  + scopeScenarios + runtimeScenarios

private let loadScenarios: [Scenario<TodosApp>] = [
  Scenario(
    "t1.loading-on-start", rules: [.t1, .r1], setup: TodosSetup(load: .pending),
    steps: [.expectView(.loading), .expectCalls([.loadTodos])]),
  Scenario(
    "t1.load-answer-is-a-later-view", rules: [.t1, .r1], setup: TodosSetup(load: .value(three)),
    steps: [.expectStepViews([.loading, ready(three)]), .expectCalls([.loadTodos])]),
  Scenario(
    "t1.intents-dropped-while-loading", rules: [.t1], setup: TodosSetup(load: .pending),
    steps: [
      .send(.draftChanged("x")), .send(.filter(.completed)), .send(.add), .send(.toggleAll),
      .send(.row(id: 1, .toggle)), .send(.clearCompleted), .expectView(.loading),
      .expectCalls([.loadTodos]), .completeLoad(.value(three)), .expectView(ready(three)),
      .expectCalls([]),
    ]),
  Scenario(
    "t1.load-nil-is-empty", rules: [.t1], setup: TodosSetup(load: .value(nil)),
    steps: [.expectView(ready([])), .expectCalls([.loadTodos])]),
  Scenario(
    "t1.load-empty-is-empty", rules: [.t1], setup: TodosSetup(load: .value([])),
    steps: [.expectView(ready([])), .expectCalls([.loadTodos])]),
  Scenario(
    "t1.load-throws", rules: [.t1, .r9], setup: TodosSetup(load: .failure),
    steps: [.expectView(ready([])), .expectCalls([.loadTodos, unreadable])]),
  Scenario(
    "t1.load-id-zero-is-unreadable", rules: [.t1],
    setup: TodosSetup(load: .value([record(0, "a")])),
    steps: [.expectView(ready([])), .expectCalls([.loadTodos, unreadable])]),
  Scenario(
    "t1.load-negative-id-is-unreadable", rules: [.t1],
    setup: TodosSetup(load: .value([milk, record(-4, "a")])),
    steps: [.expectView(ready([])), .expectCalls([.loadTodos, unreadable])]),
  Scenario(
    "t1.load-duplicate-ids-is-unreadable", rules: [.t1],
    setup: TodosSetup(load: .value([milk, eggs, record(1, "again")])),
    steps: [.expectView(ready([])), .expectCalls([.loadTodos, unreadable])]),
  Scenario(
    "t1.load-blank-title-is-unreadable", rules: [.t1, .t2],
    setup: TodosSetup(load: .value([milk, record(5, " \t\u{3000}")])),
    steps: [.expectView(ready([])), .expectCalls([.loadTodos, unreadable])]),
  Scenario(
    "t1.load-keeps-titles-verbatim", rules: [.t1],
    setup: TodosSetup(
      load: .value([
        record(4, "  padded  "), record(9, String(repeating: "é", count: 700), done: true),
      ])),
    observing: [4, 9],
    steps: [
      .expectView(
        ready([record(4, "  padded  "), record(9, String(repeating: "é", count: 700), done: true)])),
      .observe(9), .expectChildViews(9, [row(9, String(repeating: "é", count: 700), done: true)]),
      .expectCalls([.loadTodos]),
    ]),
  Scenario(
    "t1.load-never-saves", rules: [.t1, .t7], setup: TodosSetup(load: .pending),
    steps: [.completeLoad(.value(three)), .expectCalls([.loadTodos])]),
  Scenario(
    "t1.load-answered-after-stop-is-ignored", rules: [.t1, .r6, .r5],
    setup: TodosSetup(load: .pending, honorsCancellation: false),
    steps: [
      .stop, .completeLoad(.value(three)), .expectView(.loading),
      .expectCalls([.loadTodos, .cancelled(.loadTodos)]),
    ]),
  Scenario(
    "t1.large-list-loads", rules: [.t1, .t6],
    setup: TodosSetup(
      load: .value((1...100_000).map { record($0, "Task \($0)", done: $0 > 99_999) })),
    steps: [
      .send(.filter(.completed)),
      .expectView(
        TodosView(
          status: .ready, visibleIDs: [100_000], itemsLeftText: "99999 items left",
          filter: .completed, allDone: false, canToggleAll: true, canClearCompleted: true)),
      .send(.row(id: 100_000, .toggle)),
      .expectView(
        TodosView(
          status: .ready, visibleIDs: [], itemsLeftText: "100000 items left",
          filter: .completed, allDone: false, canToggleAll: true, canClearCompleted: false)),
    ]),
]

private let addScenarios: [Scenario<TodosApp>] = [
  Scenario(
    "t2.add-appends-not-done-row", rules: [.t2, .t7],
    steps: add("Milk") + [
      .expectView(ready([milk])),
      .expectCalls([.loadTodos, saved([milk])]),
    ]),
  Scenario(
    "t2.draft-shown-verbatim", rules: [.t2],
    steps: [
      .send(.draftChanged("  Milk \n")), .expectView(ready([], draft: "  Milk \n")),
      .send(.draftChanged(String(repeating: "x", count: 2_000))),
      .expectView(ready([], draft: String(repeating: "x", count: 2_000))),
      .expectCalls([.loadTodos]),
    ]),
  Scenario(
    "t2.add-of-blank-draft-changes-nothing", rules: [.t2],
    steps: add(" \t\n\u{3000} ") + [
      .expectView(ready([], draft: " \t\n\u{3000} ")), .expectStepViews([]), .send(.add),
      .expectCalls([.loadTodos]),
    ]),
  Scenario(
    "t2.title-trimmed-and-cut-to-500", rules: [.t2],
    steps: add("  " + String(repeating: "a", count: 499) + " b" + "  ") + [
      .expectView(ready([record(1, String(repeating: "a", count: 499) + " ")]))
    ]),
  Scenario(
    "t2.trimming-uses-characters", rules: [.t2],
    steps: add(" \u{301}\u{200B}Milk\u{FEFF} ") + [
      .expectView(ready([record(1, "\u{200B}Milk\u{FEFF}")]))
    ]),
  Scenario(
    "t2.cut-counts-characters", rules: [.t2],
    steps: add(String(repeating: "🇩🇪", count: 501)) + [
      .expectView(ready([record(1, String(repeating: "🇩🇪", count: 500))]))
    ]),
  Scenario(
    "t2.ids-are-never-reused", rules: [.t2, .t3],
    steps: add("Milk") + add("Eggs") + [.send(.row(id: 2, .delete))] + add("Bread") + [
      .expectView(ready([milk, record(3, "Bread")]))
    ]),
  Scenario(
    "t2.ids-follow-the-largest-loaded", rules: [.t2],
    setup: TodosSetup(load: .value([record(7, "Seven"), record(3, "Three")])),
    steps: [.send(.row(id: 7, .delete))] + add("Next") + [
      .expectView(ready([record(3, "Three"), record(8, "Next")]))
    ]),
  Scenario(
    "t2.ignored-load-and-unknown-ids-do-not-count", rules: [.t2, .t1],
    setup: TodosSetup(load: .value([record(40, "a"), record(40, "b")])),
    steps: [.send(.row(id: 99, .toggle)), .sendToChild(77, .delete)] + add("First") + [
      .expectView(ready([record(1, "First")])),
      .expectCalls([.loadTodos, unreadable, saved([record(1, "First")])]),
    ]),
  Scenario(
    "t2.no-id-beyond-int-max", rules: [.t2],
    setup: TodosSetup(load: .value([record(Int.max, "Last")])),
    steps: add("More") + [
      .expectView(ready([record(Int.max, "Last")], draft: "More")), .expectCalls([.loadTodos]),
    ]),
]

private let rowScenarios: [Scenario<TodosApp>] = [
  Scenario(
    "t3.toggle-flips-done", rules: [.t3, .t6, .t7], setup: TodosSetup(load: .value(three)),
    steps: [
      .send(.row(id: 1, .toggle)), .expectView(ready(toggled(three, 1))),
      .send(.row(id: 3, .toggle)), .expectView(ready(toggled(toggled(three, 1), 3))),
      .expectCalls([.loadTodos, saved(toggled(three, 1)), saved(toggled(toggled(three, 1), 3))]),
    ]),
  Scenario(
    "t3.delete-removes-the-row", rules: [.t3, .t7], setup: TodosSetup(load: .value(three)),
    steps: [
      .send(.row(id: 2, .delete)), .expectView(ready([milk, bread])),
      .expectCalls([.loadTodos, saved([milk, bread])]),
    ]),
  Scenario(
    "t3.unknown-ids-are-ignored", rules: [.t3], setup: TodosSetup(load: .value(three)),
    steps: [
      .send(.row(id: 9, .toggle)), .send(.row(id: 9, .delete)), .send(.row(id: 0, .beginEdit)),
      .expectStepViews([]), .expectView(ready(three)), .expectCalls([.loadTodos]),
    ]),
  Scenario(
    "t3.row-intents-act-on-hidden-rows", rules: [.t3, .t6], setup: TodosSetup(load: .value(three)),
    steps: [
      .send(.filter(.active)), .send(.row(id: 3, .toggle)),
      .expectView(ready(toggled(three, 3), filter: .active)), .send(.row(id: 3, .delete)),
      .expectView(ready([milk, eggs], filter: .active)),
      .expectCalls([.loadTodos, saved(toggled(three, 3)), saved([milk, eggs])]),
    ]),
]

private let editScenarios: [Scenario<TodosApp>] = [
  Scenario(
    "t4.begin-edit-shows-the-title", rules: [.t4], setup: TodosSetup(load: .value(three)),
    steps: [
      .observe(2),
      .send(.row(id: 2, .beginEdit)), .expectView(ready(three, editing: 2)),
      .expectChildViews(2, [row(2, "Eggs", editing: "Eggs")]), .expectCalls([.loadTodos]),
    ]),
  Scenario(
    "t4.edit-text-verbatim-commit-trims", rules: [.t4, .t2, .t7],
    setup: TodosSetup(load: .value(three)),
    steps: [
      .observe(1),
      .send(.row(id: 1, .beginEdit)), .send(.row(id: 1, .editChanged("  Oat milk  "))),
      .expectChildViews(1, [row(1, "Milk", editing: "  Oat milk  ")]),
      .send(.row(id: 1, .commitEdit)), .expectChildViews(1, [row(1, "Oat milk")]),
      .expectView(ready([record(1, "Oat milk"), eggs, bread])),
      .expectCalls([.loadTodos, saved([record(1, "Oat milk"), eggs, bread])]),
    ]),
  Scenario(
    "t4.commit-unchanged-title-saves-nothing", rules: [.t4, .t7],
    setup: TodosSetup(load: .value(three)),
    steps: [
      .send(.row(id: 1, .beginEdit)), .send(.row(id: 1, .editChanged(" Milk "))),
      .send(.row(id: 1, .commitEdit)), .expectView(ready(three)), .expectCalls([.loadTodos]),
    ]),
  Scenario(
    "t4.commit-of-blank-text-deletes", rules: [.t4, .r11],
    setup: TodosSetup(load: .value(three)),
    steps: [
      .observe(2),
      .send(.row(id: 2, .beginEdit)), .send(.row(id: 2, .editChanged(" \u{3000} "))),
      .send(.row(id: 2, .commitEdit)), .expectChildViews(2, [nil]),
      .expectView(ready([milk, bread])), .expectCalls([.loadTodos, saved([milk, bread])]),
    ]),
  Scenario(
    "t4.cancel-keeps-the-title", rules: [.t4], setup: TodosSetup(load: .value(three)),
    steps: [
      .send(.row(id: 1, .beginEdit)), .send(.row(id: 1, .editChanged("Juice"))),
      .send(.row(id: 1, .cancelEdit)), .expectView(ready(three)), .expectCalls([.loadTodos]),
    ]),
  Scenario(
    "t4.begin-edit-of-another-row-commits-first", rules: [.t4, .t7, .r11],
    setup: TodosSetup(load: .value(three)),
    steps: [
      .observe(1), .observe(2),
      .send(.row(id: 1, .beginEdit)), .send(.row(id: 1, .editChanged("Juice"))),
      .send(.row(id: 2, .beginEdit)),
      .expectStepViews([ready([record(1, "Juice"), eggs, bread], editing: 2)]),
      .expectNotifications(1),
      .expectChildViews(1, [row(1, "Juice")]),
      .expectChildViews(2, [row(2, "Eggs", editing: "Eggs")]),
      .expectCalls([.loadTodos, saved([record(1, "Juice"), eggs, bread])]),
    ]),
  Scenario(
    "t4.begin-edit-of-another-row-may-delete-the-edited", rules: [.t4, .r11],
    setup: TodosSetup(load: .value(three)),
    steps: [
      .observe(1),
      .send(.row(id: 1, .beginEdit)), .send(.row(id: 1, .editChanged(""))),
      .send(.row(id: 3, .beginEdit)), .expectChildViews(1, [nil]),
      .expectView(ready([eggs, bread], editing: 3)),
      .expectCalls([.loadTodos, saved([eggs, bread])]),
    ]),
  Scenario(
    "t4.begin-edit-of-the-edited-row-changes-nothing", rules: [.t4],
    setup: TodosSetup(load: .value(three)),
    steps: [
      .observe(1),
      .send(.row(id: 1, .beginEdit)), .send(.row(id: 1, .editChanged("Juice"))),
      .send(.row(id: 1, .beginEdit)), .expectStepViews([]), .expectChildViews(1, []),
      .expectView(ready(three, editing: 1)),
    ]),
  Scenario(
    "t4.begin-edit-of-unknown-row-keeps-the-edit", rules: [.t4, .t3],
    setup: TodosSetup(load: .value(three)),
    steps: [
      .send(.row(id: 1, .beginEdit)), .send(.row(id: 1, .editChanged("Juice"))),
      .send(.row(id: 8, .beginEdit)), .expectStepViews([]), .send(.row(id: 1, .commitEdit)),
      .expectView(ready([record(1, "Juice"), eggs, bread])),
    ]),
  Scenario(
    "t4.edit-intents-for-other-rows-are-ignored", rules: [.t4],
    setup: TodosSetup(load: .value(three)),
    steps: [
      .observe(2),
      .send(.row(id: 1, .beginEdit)), .send(.row(id: 2, .editChanged("x"))),
      .send(.row(id: 2, .commitEdit)), .send(.row(id: 2, .cancelEdit)),
      .send(.row(id: 3, .editChanged("y"))), .expectChildViews(2, []),
      .expectView(ready(three, editing: 1)), .expectCalls([.loadTodos]),
    ]),
  Scenario(
    "t4.delete-of-the-edited-row-ends-editing", rules: [.t4],
    setup: TodosSetup(load: .value(three)),
    steps: [
      .send(.row(id: 2, .beginEdit)), .send(.row(id: 2, .delete)),
      .expectView(ready([milk, bread])), .send(.row(id: 2, .commitEdit)),
      .expectView(ready([milk, bread])),
    ]),
  Scenario(
    "t4.clear-completed-of-the-edited-row-ends-editing", rules: [.t4, .t5],
    setup: TodosSetup(load: .value(three)),
    steps: [
      .send(.row(id: 3, .beginEdit)), .send(.clearCompleted), .expectView(ready([milk, eggs])),
    ]),
  Scenario(
    "t4.other-intents-leave-the-edit", rules: [.t4], setup: TodosSetup(load: .value(three)),
    steps: [
      .observe(1),
      .send(.row(id: 1, .beginEdit)), .send(.row(id: 1, .editChanged("Juice"))),
      .send(.filter(.completed)), .send(.row(id: 1, .toggle)), .send(.toggleAll),
      .send(.draftChanged("Tea")), .send(.add),
      .expectView(
        ready(
          [
            record(1, "Milk", done: true), record(2, "Eggs", done: true), bread,
            record(4, "Tea", done: false),
          ],
          filter: .completed, editing: 1)),
      .send(.row(id: 1, .commitEdit)),
      .expectChildViews(1, [row(1, "Juice", done: true)]),
    ]),
]

private let listScenarios: [Scenario<TodosApp>] = [
  Scenario(
    "t5.toggle-all-marks-all-done", rules: [.t5, .t6], setup: TodosSetup(load: .value(three)),
    steps: [
      .send(.toggleAll), .expectView(ready(three.map { record($0.id, $0.title, done: true) })),
      .send(.toggleAll), .expectView(ready(three.map { record($0.id, $0.title) })),
    ]),
  Scenario(
    "t5.toggle-all-acts-on-hidden-rows", rules: [.t5], setup: TodosSetup(load: .value(three)),
    steps: [
      .send(.filter(.completed)), .send(.toggleAll),
      .expectView(ready(three.map { record($0.id, $0.title, done: true) }, filter: .completed)),
    ]),
  Scenario(
    "t5.toggle-all-without-rows-does-nothing", rules: [.t5],
    steps: [
      .send(.toggleAll), .send(.clearCompleted), .expectStepViews([]), .expectCalls([.loadTodos]),
    ]),
  Scenario(
    "t5.clear-completed-removes-done-rows", rules: [.t5, .t7],
    setup: TodosSetup(load: .value(three)),
    steps: [
      .send(.filter(.active)), .send(.clearCompleted),
      .expectView(ready([milk, eggs], filter: .active)),
      .send(.clearCompleted), .expectCalls([.loadTodos, saved([milk, eggs])]),
    ]),
  Scenario(
    "t6.filters-show-rows-in-list-order", rules: [.t6], setup: TodosSetup(load: .value(three)),
    steps: [
      .send(.filter(.active)), .expectView(ready(three, filter: .active)),
      .send(.filter(.completed)), .expectView(ready(three, filter: .completed)),
      .send(.filter(.all)), .expectView(ready(three)), .expectCalls([.loadTodos]),
    ]),
  Scenario(
    "t6.items-left-text", rules: [.t6],
    steps: add("One") + [
      .expectView(
        TodosView(
          status: .ready, visibleIDs: [1], itemsLeftText: "1 item left", canToggleAll: true)),
      .send(.row(id: 1, .toggle)),
      .expectView(
        TodosView(
          status: .ready, visibleIDs: [1], itemsLeftText: "0 items left", allDone: true,
          canToggleAll: true, canClearCompleted: true)),
    ] + add("Two") + add("Three") + [
      .expectView(ready([record(1, "One", done: true), record(2, "Two"), record(3, "Three")]))
    ]),
]

private let saveScenarios: [Scenario<TodosApp>] = [
  Scenario(
    "t7.draft-filter-and-edit-text-are-not-the-list", rules: [.t7],
    setup: TodosSetup(load: .value(three)),
    steps: [
      .send(.draftChanged("x")), .send(.filter(.active)), .send(.row(id: 1, .beginEdit)),
      .send(.row(id: 1, .editChanged("y"))), .send(.row(id: 1, .cancelEdit)),
      .expectCalls([.loadTodos]),
    ]),
  Scenario(
    "t7.one-save-at-a-time-then-the-latest", rules: [.t7],
    setup: TodosSetup(load: .value(three), holdsSaves: true),
    steps: [
      .send(.row(id: 1, .toggle)), .send(.row(id: 2, .toggle)), .send(.row(id: 2, .delete)),
      .expectCalls([.loadTodos, saved(toggled(three, 1))]),
      .answerSave(), .expectCalls([saved([record(1, "Milk", done: true), bread])]),
      .answerSave(), .expectCalls([]),
    ]),
  Scenario(
    "t7.no-follow-up-when-the-list-is-back", rules: [.t7],
    setup: TodosSetup(load: .value(three), holdsSaves: true),
    steps: [
      .send(.row(id: 1, .toggle)), .send(.row(id: 2, .toggle)), .send(.row(id: 2, .toggle)),
      .answerSave(), .expectCalls([.loadTodos, saved(toggled(three, 1))]),
    ]),
  Scenario(
    "t7.follow-up-save-belongs-to-the-step", rules: [.t7],
    setup: TodosSetup(load: .value(three)),
    steps: [
      .sendFromObserver(.row(id: 1, .toggle), then: .row(id: 2, .toggle), times: 1),
      .expectCalls([.loadTodos, saved(toggled(three, 1)), saved(toggled(toggled(three, 1), 2))]),
    ]),
  Scenario(
    "t7.failed-save-logs-and-keeps-the-list", rules: [.t7, .r9],
    setup: TodosSetup(load: .value(three)),
    steps: [
      .failNextSave, .send(.row(id: 1, .delete)), .expectView(ready([eggs, bread])),
      .expectCalls([.loadTodos, saved([eggs, bread]), saveFailed]),
      .send(.filter(.active)), .expectCalls([]),
      .send(.row(id: 2, .toggle)), .expectCalls([saved([record(2, "Eggs", done: true), bread])]),
    ]),
  Scenario(
    "t7.failed-save-logs-before-the-follow-up", rules: [.t7],
    setup: TodosSetup(load: .value(three), holdsSaves: true),
    steps: [
      .send(.row(id: 1, .delete)), .send(.row(id: 2, .delete)), .answerSave(failing: true),
      .expectCalls([.loadTodos, saved([eggs, bread]), saveFailed, saved([bread])]),
    ]),
  Scenario(
    "t7.stop-cancels-the-save-in-flight", rules: [.t7, .r6],
    setup: TodosSetup(load: .value(three), holdsSaves: true),
    steps: [
      .send(.row(id: 1, .delete)), .send(.row(id: 2, .delete)), .stop,
      .expectCalls([.loadTodos, saved([eggs, bread]), .cancelled(saved([eggs, bread]))]),
      .answerSave(), .expectCalls([]),
    ]),
  Scenario(
    "t7.late-end-of-a-cancelled-save-applies-nothing", rules: [.t7, .r6, .r5],
    setup: TodosSetup(load: .value(three), honorsCancellation: false, holdsSaves: true),
    steps: [
      .send(.row(id: 1, .delete)), .send(.row(id: 2, .delete)), .stop,
      .answerSave(failing: true),
      .expectCalls([.loadTodos, saved([eggs, bread]), .cancelled(saved([eggs, bread]))]),
    ]),
  Scenario(
    "t7.release-cancels-the-save-in-flight", rules: [.t7, .r6],
    setup: TodosSetup(load: .value(three), holdsSaves: true),
    steps: [
      .send(.row(id: 1, .delete)), .release,
      .expectCalls([.loadTodos, saved([eggs, bread]), .cancelled(saved([eggs, bread]))]),
    ]),
]

private let scopeScenarios: [Scenario<TodosApp>] = [
  Scenario(
    "r11.row-observer-sees-only-its-row", rules: [.r11], setup: TodosSetup(load: .value(three)),
    steps: [
      .observe(2),
      .observe(1), .expectChildViews(1, [row(1, "Milk")]),
      .send(.row(id: 2, .toggle)), .expectChildViews(1, []),
      .expectChildViews(2, [row(2, "Eggs", done: true)]),
      .send(.draftChanged("x")), .send(.filter(.completed)), .expectChildViews(1, []),
      .expectChildViews(2, []),
      .send(.add), .expectChildViews(1, []),
    ]),
  Scenario(
    "r11.removed-row-is-told-once", rules: [.r11, .t3, .t5], setup: TodosSetup(load: .value(three)),
    steps: [
      .observe(2), .observe(3), .send(.row(id: 2, .delete)), .expectChildViews(2, [nil]),
      .send(.clearCompleted), .expectChildViews(3, [nil]), .send(.row(id: 2, .toggle)),
      .expectChildViews(2, []),
    ]),
  Scenario(
    "r11.unknown-row-is-told-gone-at-once", rules: [.r11], setup: TodosSetup(load: .value(three)),
    steps: [
      .observe(7), .expectChildViews(7, [nil]),
    ] + add("Four") + add("Five") + add("Six") + add("Seven") + [
      .expectChildViews(7, []),
      .expectView(
        ready(three + [record(4, "Four"), record(5, "Five"), record(6, "Six"), record(7, "Seven")])),
    ]),
  Scenario(
    "r11.before-start-and-while-loading-every-row-is-gone", rules: [.r11, .t1],
    setup: TodosSetup(load: .pending), observing: [1],
    steps: [
      .observe(2), .expectChildViews(2, [nil]), .completeLoad(.value(three)),
      .expectChildViews(1, []), .expectChildViews(2, []), .observe(1),
      .expectChildViews(1, [row(1, "Milk")]),
    ]),
  Scenario(
    "r11.scoped-intents-are-row-intents", rules: [.r11, .r12, .t3, .t4],
    setup: TodosSetup(load: .value(three)),
    steps: [
      .observe(1), .sendToChild(1, .toggle), .expectChildViews(1, [row(1, "Milk", done: true)]),
      .sendToChild(1, .beginEdit), .sendToChild(1, .editChanged("Soy")),
      .sendToChild(1, .commitEdit),
      .expectView(ready([record(1, "Soy", done: true), eggs, bread])),
      .sendToChild(2, .delete), .sendToChild(2, .toggle), .sendToChild(2, .beginEdit),
      .expectView(ready([record(1, "Soy", done: true), bread])),
    ]),
  Scenario(
    "r11.stop-and-release-tell-no-row", rules: [.r11, .r6], setup: TodosSetup(load: .value(three)),
    steps: [
      .observe(1), .stop, .expectChildViews(1, []), .send(.row(id: 1, .delete)),
      .expectChildViews(1, []),
    ]),
  Scenario(
    "r11.toggle-all-tells-each-changed-row", rules: [.r11, .t5],
    setup: TodosSetup(load: .value(three)),
    steps: [
      .observe(1), .observe(3),
      .send(.toggleAll), .expectChildViews(1, [row(1, "Milk", done: true)]),
      .expectChildViews(3, []), .expectNotifications(1),
    ]),
]

private let runtimeScenarios: [Scenario<TodosApp>] = [
  Scenario(
    "r6.subscribing-after-stop-calls-nothing", rules: [.r6, .r11],
    setup: TodosSetup(load: .value([record(1, "a"), record(2, "b")])),
    steps: [.stop, .observe(1), .observe(3), .expectChildViews(1, []), .expectChildViews(3, [])]),
  Scenario(
    "r2.observer-sends-are-queued", rules: [.r2, .r10], setup: TodosSetup(load: .value([milk])),
    steps: [
      .sendFromObserver(.row(id: 1, .toggle), then: .row(id: 1, .toggle), times: 99),
      .expectView(ready([milk])),
    ]),
  Scenario(
    "r3.concurrent-sends", rules: [.r3], setup: TodosSetup(load: .value([milk])),
    steps: [
      .sendConcurrently(.row(id: 1, .toggle), senders: 3, each: 333),
      .expectView(ready([record(1, "Milk", done: true)])),
    ]),
  Scenario(
    "r6.stop-ignores-later-intents", rules: [.r6], setup: TodosSetup(load: .value(three)),
    steps: [
      .stop, .send(.toggleAll), .send(.draftChanged("x")), .expectView(ready(three)),
      .expectCalls([.loadTodos]),
    ]),
  Scenario(
    "r10.no-notification-without-change", rules: [.r10], setup: TodosSetup(load: .value(three)),
    steps: [
      .send(.filter(.all)), .send(.draftChanged("")), .send(.row(id: 9, .toggle)),
      .expectNotifications(0),
    ]),
]
