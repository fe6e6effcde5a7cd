import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { AccountRepo } from "../../application/ports/AccountRepo.ts"
import { authenticateKey } from "../../application/usecases/auth.ts"
import { createPost } from "../../application/usecases/posts/create.ts"
import { signUp } from "../../application/usecases/signup.ts"
import * as TestHost from "../../hosts/test/TestHost.ts"

const setUp = Effect.gen(function* () {
  const { body } = yield* signUp({ body: { email: "cap@herald-customer.org" }, ip: "1.1.1.1" })
  const actor = yield* authenticateKey(body.apiKey!)
  yield* (yield* AccountRepo).upsert({
    id: "acc_s",
    workspaceId: actor.workspaceId,
    platform: "sandbox",
    name: "s",
    username: "s",
    avatarUrl: null,
    status: "connected",
    connectedAt: 0,
    externalId: "s"
  })
  return actor
})

describe("createPost on the in-memory host", () => {
  it.effect("the Free cap is 30 posts a calendar month (UTC); a new month starts afresh", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(Date.parse("2026-11-30T20:00:00Z"))
      const actor = yield* setUp
      for (let i = 0; i < 30; i++) yield* createPost(actor, { accountIds: ["acc_s"], content: `p${i}` }, null)
      const over = yield* Effect.flip(createPost(actor, { accountIds: ["acc_s"], content: "31" }, null))
      assert.strictEqual(over.code, "post_limit_reached")
      yield* TestClock.adjust("4 hours") // 2026-12-01T00:00Z
      const december = yield* createPost(actor, { accountIds: ["acc_s"], content: "december" }, null)
      assert.strictEqual(december.kind, "created")
    }).pipe(Effect.provide(TestHost.layer()))
  )

  it.effect("the schedule horizon moves with the clock", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(Date.parse("2026-11-21T00:00:00Z"))
      const actor = yield* setUp
      const tooFar = yield* Effect.flip(
        createPost(actor, { accountIds: ["acc_s"], content: "x", scheduledFor: "2027-11-21T00:00:00Z" }, null)
      )
      assert.strictEqual(tooFar.code, "scheduled_too_far")
      yield* TestClock.adjust("1 day")
      const ok = yield* createPost(
        actor,
        { accountIds: ["acc_s"], content: "x", scheduledFor: "2027-11-21T00:00:00Z" },
        null
      )
      assert.strictEqual(ok.kind, "created")
    }).pipe(Effect.provide(TestHost.layer()))
  )
})
