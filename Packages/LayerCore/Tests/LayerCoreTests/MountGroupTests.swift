import Testing

@testable import LayerCore

/// A child core of three layers that only record the count they get.
private struct Recorded: Core {
  let log: Recorder<String>
  /// Called with each count the first layer gets, before it records it.
  var onFirst: @Sendable (Int) -> Void = { _ in }

  var layers: [Layer<Int, Int>] {
    let (log, onFirst) = (log, onFirst)
    return [
      .consumer(
        ~Watch(),
        mapper: {
          onFirst($0)
          log.append("c0 \($0)")
        }),
      .consumer(~Watch(), mapper: { log.append("c1 \($0)") }),
      .consumer(~Watch(), mapper: { log.append("c2 \($0)") }),
    ]
  }

  func reduce(state: Int?, event: Int) -> ReducerResult<Int> { .set((state ?? 0) + event) }
}

private struct GroupHolder: Sendable {
  var name = "parent"
  var child: Int?
}

/// A parent that puts a layer of its own between its child's first layer and the others.
private struct Interleaving: Core {
  let child: Mounted<Recorded, GroupHolder, Int>
  let log: Recorder<String>
  let layers: [Layer<GroupHolder, Int>]

  init(log: Recorder<String>, onFirst: @escaping @Sendable (Int) -> Void = { _ in }) {
    self.log = log
    let child = Recorded(log: log, onFirst: onFirst).mounted(at: \GroupHolder.child, event: { $0 })
    self.child = child
    // Kept, not made again for each flow: a flow started twice from this core wires the same
    // layers twice.
    let childLayers = child.layers
    layers =
      [childLayers[0], .consumer(~Watch(), mapper: { log.append("p \($0.child ?? -1)") })]
      + childLayers[1...]
  }

  func reduce(state: GroupHolder?, event: Int) -> ReducerResult<GroupHolder> {
    var state = state ?? GroupHolder()
    return child.reduce(event, in: &state) == .set ? .set(state) : .skip
  }
}

@Suite struct MountedChildDelivery {
  // Every layer gets every state, in layer order, also when the parent puts one of its own
  // between a child's layers (the child's state is read once for each run of them).
  @Test func aParentLayerBetweenAChildsLayersGetsEachStateInLayerOrder() async {
    let log = Recorder<String>()
    let flow = Interleaving(log: log).start()
    flow.send(1)
    flow.send(2)
    await flow.idle()
    #expect(log.all == ["c0 1", "p 1", "c1 1", "c2 1", "c0 3", "p 3", "c1 3", "c2 3"])
    flow.stop()
  }

  // Two flows of the same layers each deliver to their own machines.
  @Test func theSameLayersStartedTwiceDeliverInEachFlow() async {
    let log = Recorder<String>()
    let core = Interleaving(log: log)
    let first = core.start()
    first.send(1)
    await first.idle()
    let second = core.start()
    second.send(5)
    await second.idle()
    #expect(log.all == ["c0 1", "p 1", "c1 1", "c2 1", "c0 5", "p 5", "c1 5", "c2 5"])
    first.stop()
    second.stop()
  }

  // A stop from inside a child's layer: no later layer, the child's own included, gets that
  // state.
  @Test func aStopFromInsideAChildsLayerReachesNoLaterLayer() async {
    let log = Recorder<String>()
    let flow = Lock<Flow<Interleaving>?>(nil)
    let core = Interleaving(log: log) { count in
      if count == 3 { flow.withLock { $0 }?.stop() }
    }
    let started = core.start()
    flow.withLock { $0 = started }
    started.send(1)
    started.send(2)
    started.send(4)
    await started.idle()
    #expect(log.all == ["c0 1", "p 1", "c1 1", "c2 1", "c0 3"])
    #expect(started.isStopped)
    flow.withLock { $0 = nil }
  }
}
