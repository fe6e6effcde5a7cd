import { Effect } from "effect"
import type { Post } from "../../../domain/post.ts"
import { Crypto } from "../../ports/Crypto.ts"
import type { Job } from "../../ports/JobQueue.ts"

/** One publish job per target, due at `runAt`. */
export const publishJobsFor = Effect.fnUntraced(function* (post: Post, runAt: number) {
  const crypto = yield* Crypto
  const jobs: Array<Job> = []
  for (const target of post.targets) {
    jobs.push({
      id: yield* crypto.id("job"),
      kind: "publish",
      workspaceId: post.workspaceId,
      postId: post.id,
      accountId: target.accountId,
      runAt,
      attempts: 0
    })
  }
  return jobs
})

/** The job that sends the first comment of one target of a post, due at `runAt`. */
export const firstCommentJob = Effect.fnUntraced(function* (
  post: Pick<Post, "id" | "workspaceId">,
  accountId: string,
  runAt: number
) {
  return {
    id: yield* (yield* Crypto).id("job"),
    kind: "first_comment",
    workspaceId: post.workspaceId,
    postId: post.id,
    accountId,
    runAt,
    attempts: 0
  } satisfies Job
})
