import { Effect, Layer, Option } from "effect"
import { IdempotencyStore } from "../../application/ports/IdempotencyStore.ts"
import { EventOutbox } from "../../application/ports/EventOutbox.ts"
import { JobQueue } from "../../application/ports/JobQueue.ts"
import { PostCreator, type PostCreatorShape } from "../../application/ports/PostCreator.ts"
import { PostRepo } from "../../application/ports/PostRepo.ts"
import { Store } from "../../application/ports/Store.ts"
import { UsageCounter } from "../../application/ports/UsageCounter.ts"

/**
 * PostCreator from the other storage ports, in one Store transaction: claim the key, count, and
 * over the cap roll back. For stores where a transaction costs nothing (memory); SQL has its own single statement.
 */
export const make = Effect.gen(function* () {
  const store = yield* Store
  const posts = yield* PostRepo
  const queue = yield* JobQueue
  const usage = yield* UsageCounter
  const keys = yield* IdempotencyStore
  const outbox = yield* EventOutbox
  class OverCap {
    readonly _tag = "OverCap"
  }
  return {
    create: ({ atLimit, claim, events, jobs, post, usage: { limit, month } }) =>
      store
        .transaction(
          Effect.gen(function* () {
            const holder = claim === undefined ? Option.none() : yield* keys.claim(claim, claim.createdAt)
            if (Option.isSome(holder)) return { _tag: "KeyHeld" as const, holder: holder.value }
            const used = yield* usage.increment(post.workspaceId, month)
            if (limit !== null && used > limit) return yield* Effect.fail(new OverCap())
            yield* posts.insert(post)
            if (jobs.length > 0) yield* queue.enqueue(jobs)
            yield* outbox.append(
              atLimit !== undefined && used === limit ? [...(events ?? []), atLimit] : (events ?? [])
            )
            return { _tag: "Created" as const, used: limit === null ? null : used }
          })
        )
        .pipe(Effect.catchTag("OverCap", () => Effect.succeed({ _tag: "OverCap" as const })))
  } satisfies PostCreatorShape
})

export const layer = Layer.effect(PostCreator)(make)
