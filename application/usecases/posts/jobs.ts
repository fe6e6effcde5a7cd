import { Effect } from "effect"
import type { Post } from "../../../domain/post.ts"
import { Crypto } from "../../ports/Crypto.ts"
import type { Job } from "../../ports/JobQueue.ts"

/** One publish job per target, due at `runAt`. */
export const publishJobsFor = Effect.fnUntraced(function* (post: Post, runAt: number) {
  const crypto = yield* Crypto
  const jobs: Array<Job> = []
  for (const target of post.targets) {
    jobs.push({ id: yield* crypto.id("job"), kind: "publish", workspaceId: post.workspaceId, postId: post.id, accountId: target.accountId, runAt, attempts: 0 })
  }
  return jobs
})
