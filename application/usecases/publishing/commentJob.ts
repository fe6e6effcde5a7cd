import { Clock, Effect, Option } from "effect"
import type { Target } from "../../../domain/post.ts"
import { JobQueue, type LeasedJob } from "../../ports/JobQueue.ts"
import { PostRepo } from "../../ports/PostRepo.ts"
import { networkFor, publishStep } from "./network.ts"
import type { PipelineOptions } from "./options.ts"
import { inPostTransaction, loadTarget, type Loaded, replaceTarget, writeTarget } from "./postTx.ts"

/** Marks the first comment publishing; none (and the job done) when there is no comment left to send. */
const begin = (job: LeasedJob) =>
  inPostTransaction(job, Effect.gen(function* () {
    const loaded = yield* loadTarget(job)
    const live = Option.filter(loaded, ({ post, target }) =>
      post.deletedAt === null && post.firstComment !== null && target.externalId !== null &&
      (target.firstComment?.status === "pending" || target.firstComment?.status === "publishing"))
    if (Option.isNone(live)) {
      yield* (yield* JobQueue).complete(job)
      return Option.none<Loaded>()
    }
    const at = yield* Clock.currentTimeMillis
    const target: Target = { ...live.value.target, firstComment: { status: "publishing", externalId: null, error: null } }
    const post = replaceTarget(live.value.post, target, at)
    yield* (yield* PostRepo).update(post)
    return Option.some<Loaded>({ post, target })
  }))

/** A first-comment job: a reply to the live post from the same account, with its own status. */
export const runCommentJob = Effect.fnUntraced(function* (job: LeasedJob, options: PipelineOptions) {
  const began = yield* begin(job)
  if (Option.isNone(began)) return
  const { post, target } = began.value
  const { account, publisher } = yield* networkFor(job)
  const rootId = target.externalId!
  const published = yield* publishStep(job, 0, {
    account, postId: post.id, content: post.firstComment!, media: [], poll: null, cover: null, coverMedia: null,
    tiktokAiGenerated: false, replyTo: { rootId, parentId: rootId }
  }, publisher, options)
  const at = yield* Clock.currentTimeMillis
  yield* writeTarget(job, at, (yield* JobQueue).complete(job), ({ target: t }) => ({
    ...t, firstComment: { status: "published", externalId: published.externalId, error: null }
  }))
})
