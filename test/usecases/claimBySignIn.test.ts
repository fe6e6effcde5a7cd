import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { TestClock } from "effect/testing"
import { SentMail } from "../../adapters/memory/RecordingMailer.ts"
import { WorkspaceRepo } from "../../application/ports/WorkspaceRepo.ts"
import { authenticateKey, authenticateSession } from "../../application/usecases/auth.ts"
import { createKey } from "../../application/usecases/keys.ts"
import { approvePost } from "../../application/usecases/posts/actions.ts"
import { createPost } from "../../application/usecases/posts/create.ts"
import { startSession } from "../../application/usecases/sessions.ts"
import { completeSignIn, requestSignInLink } from "../../application/usecases/signin.ts"
import { signUp } from "../../application/usecases/signup.ts"
import { sweepExpired } from "../../application/usecases/sweep.ts"
import { listEvents } from "../../application/usecases/webhooks/feed.ts"
import { AccountRepo } from "../../application/ports/AccountRepo.ts"
import * as TestHost from "../../hosts/test/TestHost.ts"

const email = "mailbox@herald-customer.org"

const signedUp = Effect.gen(function* () {
  const { body } = yield* signUp({ body: { email }, ip: "10.0.0.3" })
  const agent = yield* authenticateKey(body.apiKey!)
  yield* (yield* AccountRepo).upsert({
    id: "acc_s",
    workspaceId: agent.workspaceId,
    platform: "sandbox",
    name: "s",
    username: "s",
    avatarUrl: null,
    status: "connected",
    connectedAt: 0,
    externalId: "s"
  })
  const created = yield* createPost(agent, { accountIds: ["acc_s"], content: "waits" }, null)
  return { agent, postId: created.kind === "created" ? created.body.post.id : "" }
})

/** The sign-in link's token, once the mail (sent on its own fiber) is there. */
const signInToken = Effect.gen(function* () {
  yield* requestSignInLink(email)
  const sent = yield* SentMail
  const find = () => sent.all().find((m) => m.to === email && m.text.includes("/signin/complete?token="))
  for (let i = 0; i < 1000 && find() === undefined; i++) yield* Effect.yieldNow
  return /signin\/complete\?token=([A-Za-z0-9]+)/.exec(find()!.text)![1]!
})

const claimedOf = (id: string) =>
  Effect.map(
    Effect.flatMap(WorkspaceRepo, (r) => r.findById(id)),
    (w) => Option.map(w, (x) => x.claimed)
  )

describe("a sign-in through the owner's mailbox claims an unclaimed workspace", () => {
  it.effect("the workspace is claimed (with its event), kept past 7 days, and its owner approves", () =>
    Effect.gen(function* () {
      const { agent, postId } = yield* signedUp
      assert.deepStrictEqual(yield* claimedOf(agent.workspaceId), Option.some(false))
      const { workspace, session } = yield* completeSignIn(yield* signInToken)
      assert.isTrue(workspace.claimed)
      assert.deepStrictEqual(yield* claimedOf(agent.workspaceId), Option.some(true))
      const events = yield* listEvents(agent, { types: "workspace.claimed" })
      assert.lengthOf(events.events, 1)
      const { actor: person } = yield* authenticateSession(session.token)
      assert.strictEqual((yield* approvePost(person, postId)).post.status, "publishing")
      yield* TestClock.adjust("8 days")
      assert.strictEqual((yield* sweepExpired(10)).workspaces, 0)
      assert.deepStrictEqual(yield* claimedOf(agent.workspaceId), Option.some(true))
    }).pipe(Effect.provide(TestHost.layer()))
  )

  it.effect("a session kept from before, in a workspace still unclaimed, neither approves nor makes keys", () =>
    Effect.gen(function* () {
      const { agent, postId } = yield* signedUp
      const session = yield* startSession(agent.workspaceId, email)
      const { actor: person } = yield* authenticateSession(session.token)
      assert.strictEqual((yield* Effect.flip(approvePost(person, postId))).code, "claim_required")
      assert.strictEqual((yield* Effect.flip(createKey(person, { name: "more" }))).code, "claim_required")
    }).pipe(Effect.provide(TestHost.layer()))
  )

  it.effect("a sign-in link for a workspace past its 7 days signs nobody in", () =>
    Effect.gen(function* () {
      yield* signedUp
      yield* TestClock.adjust(7 * 86_400_000 - 30 * 60_000)
      const token = yield* signInToken // valid an hour, past the workspace's end
      yield* TestClock.adjust("45 minutes")
      assert.strictEqual((yield* Effect.flip(completeSignIn(token))).code, "signin_link_invalid")
    }).pipe(Effect.provide(TestHost.layer()))
  )
})
