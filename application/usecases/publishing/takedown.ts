import { Clock, Effect, Option } from "effect"
import type { Target } from "../../../domain/post.ts"
import type { LeasedJob } from "../../ports/JobQueue.ts"
import type { UnpublishRequest } from "../../ports/Publishers.ts"
import { networkFor, targetError, unpublishItem } from "./network.ts"
import type { PipelineOptions } from "./options.ts"
import { FinalFailure } from "./outcomes.ts"
import { PublishingSteps } from "./steps.ts"

/** What a target put on its network, newest first: its first comment, its replies from the last, then the post. */
export const itemsOf = (target: Target): ReadonlyArray<Pick<UnpublishRequest, "externalId" | "kind">> => [
  ...(target.firstComment?.externalId != null
    ? [{ externalId: target.firstComment.externalId, kind: "comment" as const }]
    : []),
  ...[...target.thread]
    .sort((a, b) => b.index - a.index)
    .map((r) => ({ externalId: r.externalId, kind: "reply" as const })),
  ...(target.externalId === null ? [] : [{ externalId: target.externalId, kind: "post" as const }])
]

/**
 * A take-down job: removes each item the target put on its network, then records "deleted" with the
 * job's completion, in one write. Only the network's answers make it "deleted"; a crash before the
 * record leaves it "deleting" and the next lease asks again (an item already gone counts as removed).
 */
export const takeDownJob = Effect.fnUntraced(function* (job: LeasedJob, options: PipelineOptions) {
  const steps = yield* PublishingSteps
  const loaded = Option.filter(
    yield* steps.load(job),
    ({ target }) => target.deletion?.status === "deleting" && target.externalId !== null
  )
  const complete = { _tag: "Complete" } as const
  if (Option.isNone(loaded)) {
    yield* steps.write({ job, at: yield* Clock.currentTimeMillis, hold: complete, change: ({ target }) => target })
    return
  }
  const { account, publisher, credentials } = yield* networkFor(job)
  const unpublish = publisher.unpublish
  if (unpublish === undefined)
    return yield* Effect.fail(new FinalFailure({ error: targetError("unpublish_unsupported") }))
  for (const item of itemsOf(loaded.value.target))
    yield* unpublishItem(unpublish, { account, credentials, ...item }, options)
  const at = yield* Clock.currentTimeMillis
  yield* steps.write({
    job,
    at,
    hold: complete,
    change: ({ target }) =>
      target.deletion == null
        ? target
        : { ...target, deletion: { ...target.deletion, status: "deleted", deletedAt: at, error: null } }
  })
})
