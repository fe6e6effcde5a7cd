import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { TestClock } from "effect/testing"
import { SandboxPublished } from "../../adapters/networks/sandbox/SandboxPublisher.ts"
import { SentMail } from "../../adapters/memory/RecordingMailer.ts"
import { AccountRepo } from "../../application/ports/AccountRepo.ts"
import { connectInBrowser } from "../support/connect.ts"
import { authenticateKey, authenticateSession } from "../../application/usecases/auth.ts"
import { claimWorkspace } from "../../application/usecases/claim.ts"
import { createKey } from "../../application/usecases/keys.ts"
import { createPost } from "../../application/usecases/posts/create.ts"
import { getPost } from "../../application/usecases/posts/query.ts"
import { defaultPipelineOptions } from "../../application/usecases/publishing/options.ts"
import { publishDueTargets } from "../../application/usecases/publishing/worker.ts"
import { signUp } from "../../application/usecases/signup.ts"
import * as TestHost from "../../hosts/test/TestHost.ts"

/** A claimed workspace with one sandbox account and a key that posts without approval. */
const setUp = Effect.gen(function* () {
  const email = "demo@herald-customer.org"
  yield* signUp({ body: { email }, ip: "10.0.0.9" })
  const token = /token=([A-Za-z0-9]+)/.exec((yield* SentMail).last(email)!.text)![1]
  const { session } = yield* claimWorkspace(token, null)
  const { actor: person } = yield* authenticateSession(session.token)
  const agent = yield* authenticateKey((yield* createKey(person, { name: "bot", requireApproval: false })).apiKey)
  const { account } = yield* connectInBrowser(person, "sandbox")
  return { agent, accountId: account.id }
})

const publishNow = Effect.gen(function* () {
  yield* publishDueTargets(defaultPipelineOptions, 100)
})

const targetOf = (actor: Effect.Success<typeof setUp>["agent"], id: string) =>
  Effect.map(getPost(actor, id), (r) => r.post.targets[0])

const post = (actor: Effect.Success<typeof setUp>["agent"], accountId: string, content: string) =>
  Effect.map(createPost(actor, { accountIds: [accountId], content }, null), (r) =>
    r.kind === "created" ? r.body.post.id : ""
  )

describe("the sandbox fails like a real network on demand", () => {
  it.effect("#duplicate is refused as duplicate_content with the network's words", () =>
    Effect.gen(function* () {
      const { agent, accountId } = yield* setUp
      const id = yield* post(agent, accountId, "Same again #duplicate")
      yield* publishNow
      const target = yield* targetOf(agent, id)
      assert.strictEqual(target.status, "failed")
      assert.strictEqual(target.error?.code, "duplicate_content")
      assert.include(target.error?.message ?? "", "#duplicate")
    }).pipe(Effect.provide(TestHost.layer()))
  )

  it.effect("#ratelimit waits for the window (5 s) and then publishes; meanwhile the target says why", () =>
    Effect.gen(function* () {
      const { agent, accountId } = yield* setUp
      const id = yield* post(agent, accountId, "Busy #ratelimit")
      yield* publishNow
      const waiting = yield* targetOf(agent, id)
      assert.strictEqual(waiting.status, "publishing")
      assert.strictEqual(waiting.error?.code, "rate_limited")
      yield* TestClock.adjust(4_999)
      yield* publishNow
      assert.strictEqual((yield* SandboxPublished).all().length, 0)
      yield* TestClock.adjust(1)
      yield* publishNow
      const done = yield* targetOf(agent, id)
      assert.strictEqual(done.status, "published")
      assert.isNull(done.error)
    }).pipe(Effect.provide(TestHost.layer()))
  )

  it.effect("#expired marks the account for reconnection; the next post to it is refused at once", () =>
    Effect.gen(function* () {
      const { agent, accountId } = yield* setUp
      const id = yield* post(agent, accountId, "Gone #expired")
      yield* publishNow
      assert.strictEqual((yield* targetOf(agent, id)).error?.code, "account_needs_reconnection")
      const account = Option.getOrThrow(yield* (yield* AccountRepo).findById(agent.workspaceId, accountId))
      assert.strictEqual(account.status, "needs_reconnection")
      const refused = yield* Effect.flip(createPost(agent, { accountIds: [accountId], content: "again" }, null))
      assert.strictEqual(refused.code, "account_needs_reconnection")
    }).pipe(Effect.provide(TestHost.layer()))
  )
})
