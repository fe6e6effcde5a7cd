import { Deferred, Effect, Exit } from "effect"

interface Waiter<I, O, E> {
  readonly input: I
  /** Its own outcome, or "lead": run the next batch. */
  readonly done: Deferred.Deferred<Exit.Exit<O, E> | "lead">
}

/**
 * Group commit: callers of the returned function share one `runAll` per batch. A caller that finds
 * nothing running runs its input at once, alone (no waiting, no extra hop); callers that arrive
 * meanwhile wait, and when the running batch ends the first of them runs all that waited as the
 * next batch, in its own fiber. So an idle system pays nothing for batching and a busy one pays
 * once per batch. `runAll` answers one exit per input, in order; its own failure fails them all.
 */
export const groupCommit = <I, O, E>(
  runAll: (inputs: ReadonlyArray<I>) => Effect.Effect<ReadonlyArray<Exit.Exit<O, E>>>
) => {
  let running = false
  let waiting: Array<Waiter<I, O, E>> = []

  /** The batch is over: the first waiter leads the next one, or nothing runs. */
  const handOn = Effect.suspend(() => {
    const next = waiting.shift()
    if (next === undefined) {
      running = false
      return Effect.void
    }
    return Deferred.succeed(next.done, "lead")
  })

  const lead = (first: I, others: ReadonlyArray<Waiter<I, O, E>>): Effect.Effect<Exit.Exit<O, E>> =>
    runAll([first, ...others.map((w) => w.input)]).pipe(
      Effect.exit,
      Effect.flatMap((batch) =>
        Effect.gen(function* () {
          const exit = (i: number): Exit.Exit<O, E> =>
            Exit.isSuccess(batch) ? batch.value[i] : Exit.failCause(batch.cause)
          for (const [i, waiter] of others.entries()) yield* Deferred.succeed(waiter.done, exit(i + 1))
          return exit(0)
        })
      ),
      Effect.ensuring(handOn),
      Effect.uninterruptible
    )

  return (input: I): Effect.Effect<O, E> =>
    Effect.suspend(() => {
      if (!running) {
        running = true
        return Effect.flatten(lead(input, []))
      }
      const waiter: Waiter<I, O, E> = { input, done: Deferred.makeUnsafe() }
      waiting.push(waiter)
      const leave = Effect.suspend(() => {
        const at = waiting.indexOf(waiter)
        if (at >= 0) waiting.splice(at, 1)
        // Told to lead but gone: the next one leads instead.
        return Deferred.isDoneUnsafe(waiter.done) && at < 0
          ? Effect.flatMap(Deferred.await(waiter.done), (o) => (o === "lead" ? handOn : Effect.void))
          : Effect.void
      })
      return Deferred.await(waiter.done).pipe(
        Effect.onInterrupt(() => leave),
        Effect.flatMap((outcome) => {
          if (outcome !== "lead") return outcome
          const batch = waiting
          waiting = []
          return Effect.flatten(lead(input, batch))
        })
      )
    })
}
