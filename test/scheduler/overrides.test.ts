import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { ScriptedNetwork } from "../../adapters/testing/ScriptedPublisher.ts"
import { AccountRepo } from "../../application/ports/AccountRepo.ts"
import { MediaRepo } from "../../application/ports/MediaRepo.ts"
import { PostCreator } from "../../application/ports/PostCreator.ts"
import { publishJobsFor } from "../../application/usecases/posts/jobs.ts"
import { startWorker } from "../../application/usecases/publishing/worker.ts"
import type { Post } from "../../domain/post.ts"
import { media as upload, post, target } from "../contract/fixtures.ts"
import { pipelineLayer, setUp, storedPost, testOptions } from "./support.ts"

const HOUR = 3_600_000
const LONG = `${"The long version, for the sandbox network. ".repeat(12)}End.`

describe("publishing per-network content", () => {
  it.effect("each target gets its network's final content, thread, first comment and media", () =>
    Effect.gen(function* () {
      const f = yield* setUp(1)
      const sandboxId = f.accountIds[0]
      const x = yield* (yield* AccountRepo).upsert({
        id: "acc_xoverrides",
        workspaceId: f.agent.workspaceId,
        platform: "x",
        name: "X account",
        username: "xaccount",
        avatarUrl: null,
        status: "connected",
        connectedAt: 0,
        externalId: "x-1"
      })
      const media = yield* MediaRepo
      const [wide, square] = [
        upload(f.agent.workspaceId, { id: "med_wide", expiresAt: 10 * HOUR }),
        upload(f.agent.workspaceId, { id: "med_square", expiresAt: 10 * HOUR })
      ]
      yield* media.insert(wide)
      yield* media.insert(square)
      const pending = { status: "pending" as const, externalId: null, error: null }
      const stored: Post = post(f.agent.workspaceId, {
        status: "scheduled",
        scheduledFor: HOUR,
        createdAt: 0,
        updatedAt: 0,
        content: LONG,
        mediaIds: [wide.id],
        thread: ["The long thread's reply"],
        firstComment: "Read more: https://example.org/long",
        overrides: {
          x: {
            content: "Short for X",
            thread: ["X reply one", "X reply two"],
            firstComment: null,
            mediaIds: [square.id]
          }
        },
        targets: [
          target(sandboxId, { platform: "sandbox", status: "scheduled", firstComment: pending }),
          target(x.id, { platform: "x", status: "scheduled", firstComment: null })
        ]
      })
      yield* (yield* PostCreator).create({
        post: stored,
        jobs: yield* publishJobsFor(stored, HOUR),
        usage: { month: "1970-01", limit: null }
      })
      yield* startWorker(testOptions)
      yield* TestClock.adjust(HOUR + testOptions.firstCommentDelayMs + testOptions.pollMs)

      const sent = (yield* ScriptedNetwork).published()
      const to = (accountId: string) => sent.filter((r) => r.accountId === accountId).map((r) => r.content)
      assert.deepStrictEqual(to(x.id), ["Short for X", "X reply one", "X reply two"])
      assert.deepStrictEqual(to(sandboxId), [LONG, "The long thread's reply", "Read more: https://example.org/long"])
      const mediaOf = (accountId: string) =>
        sent.filter((r) => r.accountId === accountId && r.replyTo === null).map((r) => r.request.media.map((m) => m.id))
      assert.deepStrictEqual(mediaOf(x.id), [[square.id]])
      assert.deepStrictEqual(mediaOf(sandboxId), [[wide.id]])
      const after = yield* storedPost(f.agent, stored.id)
      assert.strictEqual(after.status, "published")
      assert.deepStrictEqual(
        after.targets.map((t) => [t.platform, t.thread.length, t.firstComment?.status ?? null]),
        [
          ["sandbox", 1, "published"],
          ["x", 2, null]
        ]
      )
    }).pipe(Effect.provide(pipelineLayer(["sandbox", "x"])))
  )
})
