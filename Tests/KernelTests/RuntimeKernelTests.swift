import Dispatch
import Testing

@testable import Kernel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension DrainQueue {
  /// The next message, as a drain loop gets it, or `nil` when none is left.
  fileprivate mutating func nextIfAny() -> Message? { hasNext ? next() : nil }
}

@Suite struct DrainQueueBehaviour {
  @Test func theFirstSenderDrainsAndTheOthersOnlyQueue() {
    var queue = DrainQueue<Int>()
    let claim = DrainClaim()
    let first = queue.append(1, claiming: claim)
    let second = queue.append(2, claiming: claim)
    #expect(first && !second)
    var taken: [Int] = []
    while let next = queue.nextIfAny() { taken.append(next) }
    #expect(taken == [1, 2])
    queue.endDrain(claim)
    let held = claim.isHeld
    #expect(!held)
    let third = queue.append(3, claiming: claim)
    #expect(third)
  }

  @Test func messagesWaitUntilTheRuntimeMayDrain() {
    var queue = DrainQueue<String>()
    let claim = DrainClaim()
    let drains = queue.append("event", claiming: claim, mayDrain: false)
    let held = claim.isHeld
    #expect(!drains && !held)
    queue.insertNext("start")
    let claimed = claim.claim()
    #expect(claimed)
    let first = queue.nextIfAny()
    let second = queue.nextIfAny()
    #expect(first == "start" && second == "event")
  }

  @Test func aDrainEndedEarlyKeepsWhatWasNotTaken() {
    var queue = DrainQueue<Int>()
    let claim = DrainClaim()
    _ = queue.append(1, claiming: claim)
    _ = queue.append(2, claiming: claim)
    let first = queue.nextIfAny()
    #expect(first == 1)
    queue.endDrain(claim)
    #expect(queue.peek == 2)
    let claimed = claim.claim()
    let second = queue.nextIfAny()
    #expect(claimed && second == 2)
  }

  @Test func removingPendingMessagesKeepsTheOthersInOrder() {
    var queue = DrainQueue<Int>()
    let claim = DrainClaim()
    for value in 1...6 { _ = queue.append(value, claiming: claim) }
    let first = queue.nextIfAny()
    #expect(first == 1)
    queue.removePending { $0.isMultiple(of: 2) }
    var rest: [Int] = []
    while let value = queue.nextIfAny() { rest.append(value) }
    #expect(rest == [3, 5])
  }

  @Test func aLongDrainDropsTakenMessagesAndKeepsOrder() {
    var queue = DrainQueue<Int>()
    let claim = DrainClaim()
    var taken: [Int] = []
    _ = queue.append(0, claiming: claim)
    for value in 1...5_000 {
      _ = queue.append(value, claiming: claim)
      if let next = queue.nextIfAny() { taken.append(next) }
    }
    while let next = queue.nextIfAny() { taken.append(next) }
    #expect(taken == Array(0...5_000))
    #expect(queue.messages.count < 5_000)
  }
}

@Suite struct DrainClaimBehaviour {
  @Test func aDrainerLetsGoWithoutTheLockWhenNothingHappened() {
    let claim = DrainClaim()
    let claimed = claim.claim()
    let released = claim.release()
    let held = claim.isHeld
    // Free again: the next caller claims it.
    let claimedAgain = claim.claim()
    #expect(claimed && released && !held && claimedAgain)
  }

  @Test func aMessageQueuedMeanwhileMakesTheLockFreeReleaseFail() {
    let claim = DrainClaim()
    claim.hold()
    // Another caller queues under the lock: it does not drain, the drainer must look again.
    let otherClaimed = claim.claim()
    let released = claim.release()
    let held = claim.isHeld
    #expect(!otherClaimed && !released && held)
    // The drainer drains, and lets go under the lock once the queue is empty.
    claim.end()
    let heldAfterEnd = claim.isHeld
    let claimedAfterEnd = claim.claim()
    #expect(!heldAfterEnd && claimedAfterEnd)
  }

  @Test func aCallerWaitingForIdleIsResumedByTheDrainThatIsInProgress() async {
    let claim = DrainClaim()
    var waiters = Waiters()
    await withCheckedContinuation { (caller: CheckedContinuation<Void, Never>) in
      waiters.append(caller)
      // No drain: idle is decided now (here: not idle, so the caller stays).
      let notIdle = waiters.settled(isIdle: false, drain: claim)
      #expect(notIdle.isEmpty)
      // A drain in progress is asked to look again, and its lock-free release fails.
      claim.hold()
      let whileDraining = waiters.settled(isIdle: true, drain: claim)
      let released = claim.release()
      #expect(whileDraining.isEmpty && !released)
      // It ends under the lock, where the caller is resumed.
      claim.end()
      let resumed = waiters.settled(isIdle: true, drain: claim)
      #expect(resumed.count == 1)
      (resumed.isEmpty ? waiters.take(if: true) : resumed).resumeAll()
    }
  }

  @Test func aDrainClaimedWhileCallersWaitEndsUnderTheLock() {
    let claim = DrainClaim()
    claim.hold(lookingAgain: true)
    let released = claim.release()
    #expect(!released)
  }
}

@Suite struct RunRegistryBehaviour {
  @Test func aRunUnderTheSameIdSupersedesTheOneGoing() throws {
    var runs = RunRegistry<String>()
    let firstStarted = runs.start(id: "search", isFinite: true)
    let first = try #require(firstStarted)
    let secondStarted = runs.start(id: "search", isFinite: true)
    let second = try #require(secondStarted)
    #expect(second.superseded?.run == first.run)
    #expect(!runs.isLive(first.run))
    #expect(runs.isLive(second.run))
    #expect(runs.count == 1)
    #expect(runs.finiteCount == 1)
  }

  @Test func keepingTheRunningOneStartsNothing() throws {
    var runs = RunRegistry<String>()
    let firstStarted = runs.start(id: "load", isFinite: true)
    let first = try #require(firstStarted)
    let kept = runs.start(id: "load", isFinite: true, replacing: false)
    #expect(kept == nil)
    #expect(runs.isLive(first.run))
  }

  @Test func runsWithoutAnIdRunSideBySide() throws {
    var runs = RunRegistry<String>()
    let firstStarted = runs.start(id: nil, isFinite: true)
    let first = try #require(firstStarted)
    let secondStarted = runs.start(id: nil, isFinite: false)
    let second = try #require(secondStarted)
    #expect(first.superseded == nil && second.superseded == nil)
    #expect(runs.count == 2)
    #expect(runs.finiteCount == 1)
  }

  /// A run started without a key is known by its token: `.anonymous(token)` removes it, the
  /// runs' keys list it, and finishing it gives that key back. A caller's own `.anonymous` key
  /// is a key like any other (it supersedes a run under the same key).
  @Test func aRunWithoutAKeyIsFoundByItsToken() throws {
    var runs = RunRegistry<String>()
    let loadStarted = runs.start(id: nil, isFinite: true)
    let load = try #require(loadStarted)
    let saveStarted = runs.start(id: nil, isFinite: true)
    let save = try #require(saveStarted)
    #expect(
      Set(runs.keys { _ in true }) == [.anonymous(load.run.token), .anonymous(save.run.token)])
    let removed = runs.remove(.anonymous(load.run.token))
    #expect(removed?.run == load.run)
    #expect(!runs.isLive(load.run) && runs.isLive(save.run))
    #expect(runs.remove(.anonymous(load.run.token)) == nil)
    #expect(runs.finish(save.run) == .anonymous(save.run.token))
    #expect(runs.isEmpty && runs.finiteCount == 0)

    let firstStarted = runs.start(.anonymous(100), isFinite: true)
    let first = try #require(firstStarted)
    let secondStarted = runs.start(.anonymous(100), isFinite: true)
    let second = try #require(secondStarted)
    #expect(second.superseded?.run == first.run)
    #expect(runs.remove(.anonymous(100))?.run == second.run)
    #expect(runs.isEmpty && runs.finiteCount == 0)
  }

  @Test func aStreamNoLongerCountsForIdle() throws {
    var runs = RunRegistry<String>()
    let timerStarted = runs.start(id: "timer", isFinite: true)
    let timer = try #require(timerStarted)
    let becameLongLived = runs.becomeLongLived(timer.run)
    #expect(becameLongLived)
    #expect(runs.finiteCount == 0)
    #expect(runs.isRunning("timer"))
    #expect(!runs.isRunning("timer", finiteOnly: true))
    let again = runs.becomeLongLived(timer.run)
    #expect(!again)
  }

  @Test func aFinishedOrRemovedRunIsOver() throws {
    var runs = RunRegistry<String>()
    let saveStarted = runs.start(id: "save", isFinite: true)
    let save = try #require(saveStarted)
    let finished = runs.finish(save.run)
    let finishedAgain = runs.finish(save.run)
    #expect(finished == .id("save") && finishedAgain == nil)
    let loadStarted = runs.start(id: "load", isFinite: true)
    let load = try #require(loadStarted)
    let removed = runs.remove(.id("load"))
    #expect(removed?.run == load.run)
    let task = Task<Void, Never> {}
    let attached = runs.attach(task, to: load.run)
    #expect(!attached)
    #expect(runs.isEmpty && runs.finiteCount == 0)
  }

  @Test func removingAllHandsBackEveryTask() throws {
    var runs = RunRegistry<Int>()
    for id in 0..<3 {
      let startedStarted = runs.start(id: id, isFinite: true)
      let started = try #require(startedStarted)
      let attached = runs.attach(Task {}, to: started.run)
      #expect(attached)
    }
    let tasks = runs.removeAll()
    #expect(tasks.count == 3)
    #expect(runs.isEmpty && runs.finiteCount == 0)
  }

  /// Keys are equal when they are the same case with equal payloads, and equal keys hash alike
  /// (an id and an anonymous number with the same value are different keys).
  @Test func keysCompareAndHashByCaseAndPayload() {
    let keys: [RunKey<Int>] = [.id(1), .id(2), .anonymous(1), .anonymous(2)]
    for (i, left) in keys.enumerated() {
      for (j, right) in keys.enumerated() {
        #expect((left == right) == (i == j))
      }
      #expect(left.hashValue == RunKey<Int>.id(1).hashValue || left != .id(1))
    }
    #expect(Set(keys + keys).count == 4)
    #expect(RunKey<Int>.id(7).hashValue == RunKey<Int>.id(7).hashValue)
  }
}

@Suite struct WaitersBehaviour {
  @Test func waitersAreTakenOnlyWhenTheConditionHolds() async {
    let waiters = Lock(Waiters())
    async let resumed: Void = withCheckedContinuation { continuation in
      waiters.withLock { $0.append(continuation) }
    }
    while waiters.withLock({ $0.isEmpty }) { await Task.yield() }
    #expect(waiters.withLock { $0.take(if: false) }.isEmpty)
    let taken = waiters.withLock { $0.take(if: true) }
    #expect(taken.count == 1)
    taken.resumeAll()
    await resumed
    #expect(waiters.withLock { $0.isEmpty })
  }

  @Test func aPhaseSaysWhetherMessagesAreHandled() {
    #expect(!Phase.created.isRunning && !Phase.created.isStopped)
    #expect(Phase.running.isRunning)
    #expect(Phase.stopped.isStopped && !Phase.stopped.isRunning)
  }
}

@Suite struct LockBehaviour {
  /// Threads take turns on one lock, each appending 20,000 numbers of its own: whatever the
  /// interleaving (spun, slept, woken), no append is lost and each thread's own appear in its
  /// order. Under ThreadSanitizer (CI runs it) the appends are seen as ordered by the lock.
  @Test func threadsAppendingUnderOneLockLoseNothing() {
    let lock = Lock([Int]())
    let (threads, perThread) = (8, 20_000)
    DispatchQueue.concurrentPerform(iterations: threads) { thread in
      for index in 0..<perThread { lock.withLock { $0.append(thread * perThread + index) } }
    }
    let appended = lock.withLock { $0 }
    #expect(appended.count == threads * perThread)
    for thread in 0..<threads {
      let own = appended.filter { $0 / perThread == thread }
      #expect(own == Array(thread * perThread..<(thread + 1) * perThread))
    }
  }

  /// A thread that finds the lock held spins, then marks the lock as waited for and sleeps; the
  /// unlock wakes it, and it sees what the holder wrote.
  @Test func aWaiterSleepsUntilTheHolderUnlocksAndSeesItsWrite() {
    let lock = Lock(0)
    let seen = Lock<Int?>(nil)
    let done = DispatchSemaphore(value: 0)
    lock.lock()
    DispatchQueue.global().async {
      let value = lock.withLock { $0 }
      seen.withLock { $0 = value }
      done.signal()
    }
    // The waiter has given up spinning once the word says a thread may be waiting.
    while lock.word.load(ordering: .relaxed) != 2 { sched_yield() }
    lock.value.pointee = 42
    lock.unlock()
    done.wait()
    #expect(seen.withLock { $0 } == 42)
  }
}
