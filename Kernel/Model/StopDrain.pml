/*
 * The stop and drain protocol of Kernel/Runtime, checked by spin over every interleaving.
 *
 * What is modelled: a runtime as all five use the kernel (LayerCore's FlowRuntime handle/drain/
 * stop/deinit is the template; ElmStore, MUE, IOLoop, Comonadic and the baseline's MessageLoop
 * do the same steps): a send handled in place under the Lock when nobody drains, queued
 * otherwise; one drainer at a time, which gives the drain back without the lock when nothing
 * happened meanwhile; deliveries inside StopGate sections entered under the lock; stop()
 * marking the core stopped under the lock and then closing the gate and waiting for sections on
 * other threads. Every atomic operation of DrainClaim and StopGate is one step, as is every
 * critical section's lock acquisition; between them any other thread may run.
 *
 * Each step names the kernel function it stands for in a `kernel:` comment;
 * Scripts/check-interleavings.sh fails when one of them no longer exists in Kernel/Runtime.
 *
 * Configurations (spin -D...):
 *   SCENARIO 1  two senders (SENDS messages each, 2 by default), a third thread that may
 *               stop; every observer call may send one more message (once per run) or stop
 *               (once per run)
 *   SCENARIO 2  two senders holding the runtime weakly (work's results, 2 each), and the
 *               owner dropping the last reference while they send: deinit stops on whichever
 *               thread lets go last
 *   SCENARIO 3  scenario 1 with one message per sender, and work calling the environment in a
 *               section of its own on a fourth thread (other threads' sections in the gate)
 * Mutants (each must make the check fail):
 *   MUTANT 1    StopGate.stop does not wait for sections begun on other threads
 *   MUTANT 2    DrainClaim.release clears the claim even when asked to look again
 *   MUTANT 3    the drain gives its claim back after unlocking (the flag cleared before the
 *               queue is seen empty under the lock)
 *
 * Not a mutant: entering the gate after the lock is let go, not under it, breaks no property
 * here (a message applied before stop whose delivery finds the gate closed calls nothing,
 * which R6 allows); the runtimes enter under the lock so that a message applied before stop
 * is also delivered, which makes traces independent of where stop lands in that window.
 *
 * Properties:
 *   R2  one drainer at a time; messages applied and delivered in the order they were accepted;
 *       an observer's send is queued behind its message, never nested
 *   R3  without a stop, every message sent is applied, and the queue is empty and the claim
 *       free at the end (no message left behind a drain that ended)
 *   R6  when stop returns, no observer or environment call is in progress on another thread
 *       and none begins afterwards; stop from inside an observer returns
 *   and no deadlock: spin reports every state where a thread waits forever (invalid end state).
 */

#ifndef SCENARIO
#define SCENARIO 1
#endif
#ifndef MUTANT
#define MUTANT 0
#endif
/* Messages each sender sends. */
#ifndef SENDS
#if SCENARIO == 3
#define SENDS 1
#else
#define SENDS 2
#endif
#endif

#define NPROC 6
#define MAXQ 8

#define RUNNING 1
#define STOPPED 2

#define HELD 1
#define LOOK_AGAIN 2

/* kernel: Lock, Lock.lock, Lock.unlock — the runtime's lock and what it guards */
byte lockOwner = 0;
byte phase = RUNNING;
/* kernel: DrainQueue — accepted messages by sequence number, oldest at qhead */
byte queue[MAXQ];
byte qhead = 0;
byte qcount = 0;
byte accepted = 0;
byte applied = 0;
byte sent = 0;

/* kernel: DrainClaim — bit 0 held, bit 1 look again */
byte claim = 0;

/* kernel: StopGate — bit 0 stopped, the rest twice the open sections */
byte gstate = 0;
byte holder = 0;
byte depth = 0;
/* kernel: OpenSections — sections of a thread that is not the holder */
byte openSections[NPROC];
byte gmutexOwner = 0;
bool waiting[NPROC];

/* What the checks look at */
byte drainers = 0;
byte delivering[NPROC];
byte deliveringTotal = 0;
byte lastDelivered = 0;
bool stopReturned = false;
bool observerSent = false;
bool observerStopped = false;
byte refs = 1;

inline lock() {
  /* kernel: Lock.lock */
  atomic { lockOwner == 0 -> lockOwner = _pid + 1 }
  /* No message lost: one waiting in the queue of a running runtime always has a drainer. */
  assert(phase != RUNNING || qcount == 0 || (claim & HELD))
}

inline unlock() {
  /* kernel: Lock.unlock */
  assert(lockOwner == _pid + 1);
  lockOwner = 0
}

/* kernel: DrainClaim.claim — under the lock: take a free claim, or ask its drainer to look again */
inline claimDrain(result) {
  atomic {
    if
    :: claim == 0 -> claim = HELD; result = true
    :: else -> claim = claim | LOOK_AGAIN; result = false
    fi
  }
}

/* kernel: DrainQueue.append — under the lock */
inline append() {
  assert(qcount < MAXQ);
  queue[(qhead + qcount) % MAXQ] = accepted;
  accepted++;
  qcount++
}

/* The reducer, under the lock: a message is applied exactly in the order it was accepted. */
inline apply(seq) {
  assert(seq == applied);
  applied++
}

/* kernel: StopGate.enter */
inline gateEnter(entered) {
  atomic { before = gstate; gstate = gstate + 2 }
  if
  :: before & 1 ->
    /* kernel: StopGate.refuse, StopGate.release */
    gateRelease();
    entered = false
  :: else ->
    entered = true;
    /* kernel: currentThread — the holder loaded, then compared and exchanged */
    current = holder;
    if
    :: current == _pid + 1 -> depth++
    :: current == 0 ->
      atomic {
        if
        :: holder == 0 -> holder = _pid + 1; depth = 1
        :: else -> openSections[_pid]++   /* kernel: OpenSections.push */
        fi
      }
    :: else -> openSections[_pid]++
    fi
  fi
}

/* kernel: StopGate.release — and StopGate.wakeStopper when stopped */
inline gateRelease() {
  atomic { gstate = gstate - 2; after = gstate }
  if
  :: after & 1 ->
    atomic { gmutexOwner == 0 -> gmutexOwner = _pid + 1 }
    /* pthread_cond_broadcast */
    w = 0;
    do
    :: w < NPROC -> waiting[w] = false; w++
    :: else -> break
    od;
    gmutexOwner = 0
  :: else -> skip
  fi
}

/* kernel: StopGate.leave */
inline gateLeave() {
  if
  :: holder == _pid + 1 ->
    depth--;
    if
    :: depth == 0 -> holder = 0
    :: else -> skip
    fi
  :: else -> openSections[_pid]--   /* kernel: OpenSections.pop */
  fi;
  gateRelease()
}

/* kernel: StopGate.stop — close for good, then wait for the sections of other threads
   (kernel: StopGate.ownSections: the caller's own are not waited for) */
inline gateStop() {
  gstate = gstate | 1;
  own = openSections[_pid];
  if
  :: holder == _pid + 1 -> own = own + depth
  :: else -> skip
  fi;
#if MUTANT != 1
  atomic { gmutexOwner == 0 -> gmutexOwner = _pid + 1 }
  do
  :: (gstate >> 1) > own ->
    /* pthread_cond_wait: let the mutex go, sleep until a broadcast, take it again */
    atomic { waiting[_pid] = true; gmutexOwner = 0 }
    !waiting[_pid];
    atomic { gmutexOwner == 0 -> gmutexOwner = _pid + 1 }
  :: else -> break
  od;
  gmutexOwner = 0
#endif
}

/* Every thread's locals (spin hoists an inline's declarations into its process). */
#define LOCALS \
  bool mustDrain, mustDrainNested, entered, released, last, alive; \
  byte mine, seq, before, after, own, w, current

/* The runtime's stop(): the core stops under the lock (queue dropped), then the gate. */
inline stop() {
  lock();
  phase = STOPPED;
  qcount = 0;   /* kernel: DrainQueue.removeAll */
  unlock();
  gateStop();
  /* R6: nothing of this runtime is in progress on another thread when stop returns */
  assert(deliveringTotal - delivering[_pid] == 0);
  stopReturned = true
}

/* An observer call: it may send one more message, or stop the runtime (each once per run). */
inline deliver(seq) {
  assert(!stopReturned);        /* R6: nothing begins after stop returned */
  assert(seq + 1 > lastDelivered);   /* R2: delivered in order */
  lastDelivered = seq + 1;
  delivering[_pid]++;
  assert(delivering[_pid] == 1);  /* R2: never nested */
  deliveringTotal++;
#if SCENARIO != 2
  if
  :: !observerSent -> observerSent = true; sendFromObserver()
  :: !observerStopped -> observerStopped = true; stop()
  :: true -> skip
  fi;
#endif
  deliveringTotal--;
  delivering[_pid]--
}

/* A send from inside an observer: the caller drains, so it is queued (never handled nested). */
inline sendFromObserver() {
  lock();
  if
  :: phase == STOPPED -> unlock()
  :: else ->
    assert(claim & HELD);   /* R2: the observer's caller holds the drain */
    sent++;
    append();
    claimDrain(mustDrainNested);
    assert(!mustDrainNested);
    unlock()
  fi
}

/* The runtime's drain(): handles the queue until it is empty, one message at a time. */
inline drain() {
  drainers++;
  assert(drainers == 1);   /* R2: one drainer at a time */
  do
  :: lock();
    if
    :: phase == STOPPED || qcount == 0 ->
      drainers--;
#if MUTANT == 3
      unlock();
      claim = 0;    /* the flag cleared outside the lock */
#else
      claim = 0;    /* kernel: DrainQueue.endDrain, DrainClaim.end */
      unlock();
#endif
      break
    :: else ->
      seq = queue[qhead];    /* kernel: DrainQueue.next */
      qhead = (qhead + 1) % MAXQ;
      qcount--;
      apply(seq);
      gateEnter(entered);
      unlock();
      if
      :: entered -> deliver(seq); gateLeave()
      :: else -> skip
      fi
    fi
  od
}

/* The runtime's send(): handled in place when nobody drains, queued otherwise. */
inline send() {
  lock();
  if
  :: phase == STOPPED -> unlock()
  :: claim != 0 ->   /* kernel: DrainClaim.isHeld */
    sent++;
    append();
    claimDrain(mustDrain);
    unlock();
    if
    :: mustDrain -> drain()
    :: else -> skip
    fi
  :: else ->
    sent++;
    mine = accepted;
    accepted++;
    apply(mine);
    claim = HELD;    /* kernel: DrainClaim.hold */
    drainers++;
    assert(drainers == 1);
    gateEnter(entered);
    unlock();
    if
    :: entered -> deliver(mine); gateLeave()
    :: else -> skip
    fi;
    drainers--;
    /* kernel: DrainClaim.release — lock-free, fails when asked to look again */
    atomic {
#if MUTANT == 2
      claim = 0; released = true
#else
      if
      :: claim == HELD -> claim = 0; released = true
      :: else -> released = false
      fi
#endif
    }
    if
    :: !released -> drain()
    :: else -> skip
    fi
  fi
}

/* The runtime's deinit: stops unless stopped (kernel: StopGate.isStopped). */
inline deinit() {
  if
  :: gstate & 1 -> skip
  :: else -> stop()
  fi
}

/* A reference dropped: the last one runs deinit on this thread. */
inline dropReference() {
  atomic { refs--; last = (refs == 0) }
  if
  :: last -> deinit()
  :: else -> skip
  fi
}

proctype Sender() {
  LOCALS;
  byte sends = 0;
  do
  :: sends < SENDS ->
    sends++;
#if SCENARIO == 2
    /* Work holds the runtime weakly: a strong reference for the send, if it still exists. */
    atomic {
      if
      :: refs > 0 -> refs++; alive = true
      :: else -> alive = false
      fi
    }
    if
    :: alive -> send(); dropReference()
    :: else -> skip
    fi
#else
    send()
#endif
  :: else -> break
  od
}

/* Work calling the environment (kernel: WhileRunning.perform): inside a section of its own,
   on a thread of its own, so it begins before stop returns or not at all (R6). */
proctype Worker() {
  LOCALS;
  gateEnter(entered);
  if
  :: entered ->
    assert(!stopReturned);   /* R6: no environment call begins after stop returned */
    deliveringTotal++;
    delivering[_pid]++;
    delivering[_pid]--;
    deliveringTotal--;
    gateLeave()
  :: else -> skip
  fi
}

proctype Stopper() {
  LOCALS;
#if SCENARIO == 2
  dropReference()
#else
  if
  :: stop()
  :: skip
  fi
#endif
}

init {
  atomic {
    run Sender();
    run Sender();
    run Stopper();
#if SCENARIO == 3
    run Worker()
#endif
  }
  (_nr_pr == 1);
  /* R3: without a stop nothing is left behind; with one, nothing runs afterwards */
  if
  :: phase != STOPPED ->
    assert(qcount == 0);
    assert(claim == 0);
    assert(applied == sent)
  :: else ->
    assert(holder == 0 && (gstate >> 1) == 0)
  fi
}
