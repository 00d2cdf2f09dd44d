import ArchitectureSpec
import CHeapUsage
import Foundation
import Kernel

/// List operations on the todos app, js-framework-benchmark style, at several sizes: what one
/// operation costs with N rows, a root observer and 20 row observers (what a screen shows).
///
/// Every workload is named `todos.<operation>.<rows>` and checks, besides the final list, that
/// each observed row was notified exactly as often as the operation changed it: a row the
/// operation did not change must get 0 calls (SPEC R11).
///
/// Storage holds the first save, so the saves of later changes wait behind it (SPEC T7): what
/// is measured is the update and its observation, as js-framework-benchmark measures rendering,
/// not copying N records for storage on every change.
public enum ListWorkloads {
  /// The list sizes every operation runs at.
  public static let sizes = [100, 1_000, 10_000, 100_000]

  /// How many rows are observed besides the root.
  public static let observedRows = 20

  /// One list operation.
  public enum Operation: String, CaseIterable, Sendable {
    /// A fresh runtime loads N stored rows (start to ready), with the root observed.
    case load
    /// A title typed into the draft and added (two intents).
    case add
    /// One observed row toggled.
    case toggle
    /// Every 10th row, starting with the first, renamed: begin, change, commit (3 intents a row).
    case rename
    /// One row no one observes deleted.
    case delete
    /// Every row toggled at once.
    case toggleAll = "toggle-all"
    /// One unobserved row toggled, then completed rows cleared (two intents).
    case clearCompleted = "clear-completed"
    /// The filter switched between `active` and `all`, with every second row done.
    case filter

    /// What one operation is, in reports.
    var unit: String {
      switch self {
      case .load: "load"
      case .add: "add"
      case .toggle: "toggle"
      case .rename: "pass"
      case .delete: "delete"
      case .toggleAll: "toggle-all"
      case .clearCompleted: "clear"
      case .filter: "switch"
      }
    }

    /// How many operations a full run performs at `rows` rows: operations whose cost should not
    /// depend on the size run 2,000 times; those that visit every row fewer times as lists grow.
    func operations(rows: Int) -> Int {
      switch self {
      case .add, .toggle: 2_000
      case .delete, .clearCompleted: min(2_000, (rows - ListWorkloads.observedRows) / 2)
      case .load: max(2, min(200, 20_000 / rows))
      case .rename, .toggleAll, .filter: max(2, min(2_000, 200_000 / rows))
      }
    }
  }

  /// Every operation at every size, by operation then size.
  public static let all: [Workload] = Operation.allCases.flatMap { operation in
    sizes.map { workload(operation, rows: $0) }
  }

  /// The workload's name: `todos.toggle.10000`.
  public static func name(_ operation: Operation, rows: Int) -> String {
    "\(TodosApp.name).\(operation.rawValue).\(rows)"
  }

  /// The ids of the observed rows in a list of `1...rows`: 20 rows spread evenly, the first
  /// included.
  static func observedIDs(rows: Int) -> [Int] {
    (0..<observedRows).map { 1 + $0 * (rows / observedRows) }
  }

  /// Rows that no one observes, from the end of the list, for deleting and clearing.
  static func unobservedIDs(rows: Int) -> [Int] {
    let observed = Set(observedIDs(rows: rows))
    return (1...rows).reversed().filter { !observed.contains($0) }
  }

  /// `operation` at `rows` rows.
  public static func workload(_ operation: Operation, rows: Int) -> Workload {
    let name = name(operation, rows: rows)
    return Workload(
      name: name, app: TodosApp.name, operation: operation.unit,
      operations: operation.operations(rows: rows)
    ) { contestant, count in
      guard let implementation = contestant.todos else { return nil }
      return switch operation {
      case .load: await load(implementation, name: name, rows: rows, count: count)
      default:
        await listTrial(implementation, operation, name: name, rows: rows, count: count)
      }
    }
  }

  /// `count` fresh runtimes, each loading `rows` stored rows to ready.
  private static func load(
    _ implementation: Implementation<TodosApp>, name: String, rows: Int, count: Int
  ) async -> Trial {
    let executor = SettlingExecutor.acquire()
    let records = (1...rows).map { TodoRecord(id: $0, title: "Task \($0)", done: false) }
    let sessions = Sessions()
    return Trial {
      await onExecutor(executor) {
        for _ in 0..<count {
          sessions.append(
            await Session(
              implementation, executor: executor, setup: TodosSetup(load: .value(records))))
        }
      }
    } finish: { () throws(WorkloadFailure) -> Outcome in
      let results = await onExecutor(executor) {
        var results: [(TodosView, Int)] = []
        for session in sessions.all {
          // The first call is the loading view, on subscribe.
          results.append((await session.driver.view, session.views - 1))
          await session.end()
        }
        return results
      }
      executor.release()
      let expected = TodosApp.itemsLeftText(rows)
      for (view, notifications) in results
      where view.itemsLeftText != expected || view.visibleIDs.count != rows || notifications != 1 {
        throw WorkloadFailure(
          "\(name): a load showed \(view.visibleIDs.count) rows, \(view.itemsLeftText), and "
            + "notified the root \(notifications) time(s) after start; expected \(rows) rows, "
            + "\(expected), once")
      }
      return Outcome(
        operations: count, notifications: results.reduce(0) { $0 + $1.1 },
        byKind: NotificationsByKind(root: results.reduce(0) { $0 + $1.1 }))
    }
  }

  /// A loaded list of `rows` rows, observed, then `count` operations.
  private static func listTrial(
    _ implementation: Implementation<TodosApp>, _ operation: Operation, name: String,
    rows: Int, count: Int
  ) async -> Trial {
    let executor = SettlingExecutor.acquire()
    let records = (1...rows).map {
      TodoRecord(id: $0, title: "Task \($0)", done: operation == .filter && $0 % 2 == 0)
    }
    let observed = observedIDs(rows: rows)
    let counts = RowCounts(observed)
    let unobserved = unobservedIDs(rows: rows)
    let (session, rootBefore) = await onExecutor(executor) {
      let session = await Session(
        implementation, executor: executor,
        setup: TodosSetup(load: .value(records), holdsSaves: true))
      for id in observed { await session.driver.observe(id) { _ in counts.add(id) } }
      // A row nobody observes, toggled twice: the first change's save (the whole list) begins
      // and is held here, not in the first measured operation.
      if let warm = unobserved.last {
        session.driver.send(.row(id: warm, .toggle))
        session.driver.send(.row(id: warm, .toggle))
      }
      await session.settle()
      counts.reset()
      return (session, session.views)
    }
    let driver = session.driver
    let toggled = observed[observed.count / 2]
    return Trial {
      await onExecutor(executor) {
        for index in 0..<count {
          switch operation {
          case .load: break
          case .add:
            driver.send(.draftChanged("New \(index)"))
            driver.send(.add)
          case .toggle: driver.send(.row(id: toggled, .toggle))
          case .rename:
            for id in stride(from: 1, through: rows, by: 10) {
              driver.send(.row(id: id, .beginEdit))
              driver.send(.row(id: id, .editChanged("Task \(id) v\(index)")))
              driver.send(.row(id: id, .commitEdit))
            }
          case .delete: driver.send(.row(id: unobserved[index], .delete))
          case .toggleAll: driver.send(.toggleAll)
          case .clearCompleted:
            driver.send(.row(id: unobserved[index], .toggle))
            driver.send(.clearCompleted)
          case .filter: driver.send(.filter(index % 2 == 0 ? .active : .all))
          }
          await session.settle()
        }
      }
    } finish: { () throws(WorkloadFailure) -> Outcome in
      let (view, root) = await onExecutor(executor) {
        let result = (await driver.view, session.views - rootBefore)
        await session.end()
        return result
      }
      executor.release()
      // What each observed row must have been told, and what the list must show.
      let perChangedRow: Int
      let changed: Set<Int>
      let rowsLeft: Int
      let left: Int
      let rootExpected: Int
      switch operation {
      case .load, .add:
        (perChangedRow, changed) = (0, [])
        (rowsLeft, left, rootExpected) = (rows + count, rows + count, 2 * count)
      case .toggle:
        (perChangedRow, changed) = (count, [toggled])
        (rowsLeft, left, rootExpected) = (rows, count % 2 == 0 ? rows : rows - 1, count)
      case .rename:
        (perChangedRow, changed) = (3 * count, Set(observed.filter { ($0 - 1) % 10 == 0 }))
        // beginEdit and commitEdit change the root (the edited id); editChanged does not.
        let passes = (rows + 9) / 10
        (rowsLeft, left, rootExpected) = (rows, rows, 2 * passes * count)
      case .delete:
        (perChangedRow, changed) = (0, [])
        (rowsLeft, left, rootExpected) = (rows - count, rows - count, count)
      case .toggleAll:
        (perChangedRow, changed) = (count, Set(observed))
        (rowsLeft, left, rootExpected) = (rows, count % 2 == 0 ? rows : 0, count)
      case .clearCompleted:
        (perChangedRow, changed) = (0, [])
        (rowsLeft, left, rootExpected) = (rows - count, rows - count, 2 * count)
      case .filter:
        (perChangedRow, changed) = (0, [])
        let active = rows - rows / 2
        (rowsLeft, left, rootExpected) = (count % 2 == 0 ? rows : active, active, count)
      }
      let calls = counts.snapshot
      let wrongRows = observed.filter {
        calls[$0, default: 0] != (changed.contains($0) ? perChangedRow : 0)
      }
      guard wrongRows.isEmpty else {
        let id = wrongRows[0]
        throw WorkloadFailure(
          "\(name): observed row #\(id) was notified \(calls[id, default: 0]) time(s) over "
            + "\(count) operation(s); expected \(changed.contains(id) ? perChangedRow : 0)"
            + (changed.contains(id) ? "" : " (the operation did not change it)"))
      }
      guard view.visibleIDs.count == rowsLeft, view.itemsLeftText == TodosApp.itemsLeftText(left),
        root == rootExpected
      else {
        throw WorkloadFailure(
          "\(name): \(count) operation(s) showed \(view.visibleIDs.count) rows, "
            + "\(view.itemsLeftText), and notified the root \(root) time(s); expected "
            + "\(rowsLeft) rows, \(TodosApp.itemsLeftText(left)), \(rootExpected)")
      }
      let changedCalls = changed.reduce(0) { $0 + calls[$1, default: 0] }
      let unchangedCalls = observed.reduce(0) { $0 + calls[$1, default: 0] } - changedCalls
      return Outcome(
        operations: count, notifications: root + changedCalls + unchangedCalls,
        byKind: NotificationsByKind(
          root: root, changedRows: changedCalls, unchangedRows: unchangedCalls,
          changedRowsObserved: changed.count, unchangedRowsObserved: observed.count - changed.count
        ))
    }
  }
}

/// Notifications per observer kind, for the list workloads.
public struct NotificationsByKind: Sendable, Hashable, Codable {
  /// Calls of the root observer.
  public var root: Int
  /// Calls of the observers of rows the operations changed, all together.
  public var changedRows: Int
  /// Calls of the observers of rows the operations did not change, all together: 0 when
  /// observation is scoped (SPEC R11).
  public var unchangedRows: Int
  /// How many of the observed rows the operations changed.
  public var changedRowsObserved: Int
  /// How many of the observed rows they did not change.
  public var unchangedRowsObserved: Int

  public init(
    root: Int, changedRows: Int = 0, unchangedRows: Int = 0, changedRowsObserved: Int = 0,
    unchangedRowsObserved: Int = 0
  ) {
    self.root = root
    self.changedRows = changedRows
    self.unchangedRows = unchangedRows
    self.changedRowsObserved = changedRowsObserved
    self.unchangedRowsObserved = unchangedRowsObserved
  }
}

/// Observer calls per observed row id, counted from the observers' threads.
private final class RowCounts: Sendable {
  private let calls: [Int: NotificationCount]

  init(_ ids: [Int]) {
    var calls: [Int: NotificationCount] = [:]
    for id in ids { calls[id] = NotificationCount() }
    self.calls = calls
  }

  func add(_ id: Int) { calls[id]?.add() }

  func reset() { for count in calls.values { count.reset() } }

  var snapshot: [Int: Int] { calls.mapValues(\.value) }
}

/// The sessions a load trial started, kept until it finishes.
private final class Sessions: Sendable {
  private let sessions = Lock<[Session<TodosApp>]>([])

  func append(_ session: Session<TodosApp>) { sessions.withLock { $0.append(session) } }

  var all: [Session<TodosApp>] { sessions.withLock { $0 } }
}

extension ListWorkloads {
  /// What `contestant`'s todos app holds after loading `rows` rows, and its peak during the load;
  /// `nil` when it has no todos app or loaded something else. Run it in a process of its own:
  /// the peak is the process's resident high-water mark.
  public static func memory(of contestant: Contestant, rows: Int) async -> MemoryUse? {
    guard let implementation = contestant.todos else { return nil }
    let executor = SettlingExecutor.acquire()
    defer { executor.release() }
    let records = (1...rows).map { TodoRecord(id: $0, title: "Task \($0)", done: false) }
    let heapBefore = heap_bytes_in_use()
    let residentBefore = ResidentMemory.resetPeak()
    let (session, heapAfter, peak) = await onExecutor(executor) {
      let session = await Session(
        implementation, executor: executor, setup: TodosSetup(load: .value(records)))
      return (session, heap_bytes_in_use(), ResidentMemory.peak())
    }
    let view = await onExecutor(executor) { await session.driver.view }
    await onExecutor(executor) { await session.end() }
    guard view.visibleIDs.count == rows else { return nil }
    return MemoryUse(
      contestant: contestant.name, rows: rows, retainedBytes: heapAfter - heapBefore,
      peakBytes: residentBefore.flatMap { before in peak.map { max(0, $0 - before) } })
  }
}

extension AppWorkloads {
  /// What `count` started counters of `contestant` hold, each loaded and running, and the peak
  /// while they start; `nil` when it has no counter or one did not become ready. Run it in a
  /// process of its own (see ``ListWorkloads/memory(of:rows:)``).
  public static func counterMemory(of contestant: Contestant, count: Int) async -> MemoryUse? {
    guard let implementation = contestant.counter else { return nil }
    let executor = SettlingExecutor.acquire()
    defer { executor.release() }
    let heapBefore = heap_bytes_in_use()
    let residentBefore = ResidentMemory.resetPeak()
    let (sessions, heapAfter, peak) = await onExecutor(executor) {
      var sessions: [Session<CounterApp>] = []
      for _ in 0..<count {
        sessions.append(
          await Session(implementation, executor: executor, setup: CounterSetup(load: .value(7))))
      }
      return (sessions, heap_bytes_in_use(), ResidentMemory.peak())
    }
    var ready = true
    for session in sessions {
      let view = await onExecutor(executor) { await session.driver.view }
      ready = ready && view == .ready(count: 7)
      await onExecutor(executor) { await session.end() }
    }
    guard ready else { return nil }
    return MemoryUse(
      contestant: contestant.name, rows: count, retainedBytes: heapAfter - heapBefore,
      peakBytes: residentBefore.flatMap { before in peak.map { max(0, $0 - before) } })
  }
}

/// The process's resident memory, from `/proc/self/status` (Linux).
enum ResidentMemory {
  /// Resets the high-water mark to the current resident size and returns that size in bytes;
  /// `nil` where the system does not allow it.
  static func resetPeak() -> Int? {
    guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return nil }
    defer { try? handle.close() }
    guard (try? handle.write(contentsOf: Data("5".utf8))) != nil else { return nil }
    return field("VmRSS")
  }

  /// The high-water mark of resident memory in bytes.
  static func peak() -> Int? { field("VmHWM") }

  private static func field(_ name: String) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("\(name):") }),
      let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
    else { return nil }
    return kilobytes * 1024
  }
}
