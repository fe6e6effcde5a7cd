import { Clock, Effect, Fiber, FiberSet, Latch, Option, Semaphore } from "effect"

/** A queue the loop serves: `lease` due items, `extend` the leases still held (one write), `handle` a leased batch. */
export interface Leasing<A extends { readonly id: string }, R = never> {
  /** For logs: what is leased ("publishing jobs", "webhook deliveries"). */
  readonly name: string
  /** Takes up to `max` due items, each held until `now + leaseMs`; concurrent callers never get the same item. */
  readonly lease: (now: number, max: number, leaseMs: number) => Effect.Effect<ReadonlyArray<A>>
  /** The heartbeat: pushes the leases of items still held to `until` (items finished meanwhile are left alone). */
  readonly extend: (items: ReadonlyArray<A>, until: number) => Effect.Effect<unknown>
  /** Runs a leased batch; `done(item)` frees the item's slot and stops its heartbeat (the loop does it at the end otherwise). */
  readonly handle: (items: ReadonlyArray<A>, done: (item: A) => Effect.Effect<void>) => Effect.Effect<void, never, R>
}

export interface LoopOptions {
  /** Items in flight at once in this loop. */
  readonly concurrency: number
  /** Items taken per lease at most. */
  readonly batch: number
  /** Idle wait between two looks at the queue. */
  readonly pollMs: number
  /** Under load, how long a freed slot waits for `gather` others before the next lease (a lease costs a statement). */
  readonly gatherMs: number
  /** Slots gathered under load before leasing. */
  readonly gather: number
  /** How long a lease lasts without a heartbeat; the heartbeat renews it every third of that. */
  readonly leaseMs: number
}

export interface LeaseLoop {
  /** Stops leasing, lets items in flight finish for up to `graceMs`, then interrupts them (their handlers hand them back). */
  readonly stop: (graceMs: number) => Effect.Effect<void>
}

/** Renews every lease in `held` each third of `leaseMs`, in one write per beat, until interrupted. */
const heartbeat = <A extends { readonly id: string }, R>(
  leasing: Leasing<A, R>,
  held: ReadonlyMap<string, A>,
  leaseMs: number
) =>
  Effect.gen(function* () {
    while (true) {
      yield* Effect.sleep(Math.max(1, Math.floor(leaseMs / 3)))
      if (held.size === 0) continue
      const until = (yield* Clock.currentTimeMillis) + leaseMs
      yield* leasing
        .extend([...held.values()], until)
        .pipe(Effect.catchCause((cause) => Effect.logError(`renewing leases of ${leasing.name} failed`, cause)))
    }
  })

/** Runs a leased batch with its heartbeat; every item is marked done by the end. */
const runBatch = <A extends { readonly id: string }, R>(
  leasing: Leasing<A, R>,
  items: ReadonlyArray<A>,
  held: Map<string, A>,
  free: (n: number) => Effect.Effect<void>
) => {
  for (const item of items) held.set(item.id, item)
  const done = (item: A): Effect.Effect<void> => Effect.suspend(() => (held.delete(item.id) ? free(1) : Effect.void))
  return leasing.handle(items, done).pipe(Effect.ensuring(Effect.forEach(items, done, { discard: true })))
}

/** One pass, no loop: leases what is due now (up to `max`) and runs it with its heartbeat. For the CLI and TestClock tests. */
export const leaseOnce = <A extends { readonly id: string }, R>(leasing: Leasing<A, R>, max: number, leaseMs: number) =>
  Effect.scoped(
    Effect.gen(function* () {
      const items = yield* leasing.lease(yield* Clock.currentTimeMillis, max, leaseMs)
      const held = new Map<string, A>()
      yield* Effect.forkScoped(heartbeat(leasing, held, leaseMs))
      yield* runBatch(leasing, items, held, () => Effect.void)
      return items.length
    })
  )

/**
 * The lease loop in the background of the current scope: at most `concurrency` items in flight; it
 * leases as slots free up (gathering a few under load) and looks again after `pollMs` when nothing is
 * due; one heartbeat renews every lease it holds. Loops in any number of processes share a queue.
 */
export const startLeaseLoop = Effect.fnUntraced(function* <A extends { readonly id: string }, R>(
  leasing: Leasing<A, R>,
  options: LoopOptions
) {
  const slots = yield* Semaphore.make(options.concurrency)
  const running = yield* FiberSet.make<void, never>()
  const context = yield* Effect.context<R>()
  const held = new Map<string, A>()
  const gather = Math.max(1, Math.min(options.gather, options.batch))
  // Opened as an item finishes: a queue whose caps held items back has something to offer again.
  const finished = yield* Latch.make(false)
  const free = (n: number) =>
    Effect.andThen(
      Semaphore.release(slots, n),
      Effect.sync(() => Latch.openUnsafe(finished))
    )
  let stopping = false

  // Lease and fork without interruption, so a stop never drops items leased but not yet started.
  const pass = (taken: number) =>
    Effect.uninterruptible(
      Effect.gen(function* () {
        let asked = taken
        while (asked < options.batch && (yield* Semaphore.takeIfAvailable(slots, 1))) asked++
        const items = yield* leasing
          .lease(yield* Clock.currentTimeMillis, asked, options.leaseMs)
          .pipe(Effect.catchCause((cause) => Effect.as(Effect.logError(`leasing ${leasing.name} failed`, cause), [])))
        if (asked > items.length) yield* Semaphore.release(slots, asked - items.length)
        if (items.length > 0)
          yield* FiberSet.run(running, Effect.provideContext(runBatch(leasing, items, held, free), context))
        return items.length === asked
      })
    )

  const loop = Effect.gen(function* () {
    let more = false
    while (!stopping) {
      yield* Semaphore.take(slots, 1)
      // More is waiting: give a few more slots a moment to free up, so one lease takes many items.
      const gathered: boolean =
        more &&
        gather > 1 &&
        Option.isSome(yield* Effect.timeoutOption(Semaphore.take(slots, gather - 1), options.gatherMs))
      more = yield* pass(gathered ? gather : 1)
      if (more || stopping) continue
      // Nothing more now: look again after pollMs, or sooner once an item in flight finishes (a few together).
      yield* finished.close
      if (held.size > 0 && Option.isSome(yield* Effect.timeoutOption(finished.await, options.pollMs)))
        yield* Effect.sleep(options.gatherMs)
      else if (held.size === 0) yield* Effect.sleep(options.pollMs)
    }
  })
  const beat = yield* Effect.forkScoped(heartbeat(leasing, held, options.leaseMs))
  const loopFiber = yield* Effect.forkScoped(loop)

  return {
    stop: (graceMs) =>
      Effect.gen(function* () {
        stopping = true
        yield* Fiber.interrupt(loopFiber)
        yield* FiberSet.awaitEmpty(running).pipe(Effect.timeoutOption(graceMs))
        yield* FiberSet.clear(running)
        yield* Fiber.interrupt(beat)
      })
  } satisfies LeaseLoop
})
