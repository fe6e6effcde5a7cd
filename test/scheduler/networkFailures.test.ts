import { assert, describe, it } from "@effect/vitest"
import { Context, Effect, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import { connector as sandboxConnector } from "../../adapters/networks/sandbox/index.ts"
import { Behaviour, ScriptedNetwork } from "../../adapters/testing/ScriptedPublisher.ts"
import { AccountRepo } from "../../application/ports/AccountRepo.ts"
import { Connectors, GrantRevoked, type NetworkCredentials } from "../../application/ports/Connectors.ts"
import { CredentialStore } from "../../application/ports/CredentialStore.ts"
import { JobQueue } from "../../application/ports/JobQueue.ts"
import { connectorsOf } from "../../application/ports/Network.ts"
import { disconnectAccount } from "../../application/usecases/accounts.ts"
import { storeCredentials } from "../../application/usecases/credentials.ts"
import { createPost } from "../../application/usecases/posts/create.ts"
import { getPost } from "../../application/usecases/posts/query.ts"
import { startWorker } from "../../application/usecases/publishing/worker.ts"
import type { Actor } from "../../domain/apiKey.ts"
import { pipelineLayer, setUp, testOptions } from "./support.ts"
import type { CreatePostBody } from "../../domain/contract/postRequest.ts"

/** What the scripted network's refresh answers, in turn, and the credentials it was given: each test's own. */
class Refreshes extends Context.Service<
  Refreshes,
  { readonly answers: Array<"ok" | "revoked">; readonly seen: Array<NetworkCredentials> }
>()("test/networkFailures/Refreshes") {}

/** The scripted network's accounts hold credentials; its refresh answers as Refreshes says. */
const renewingConnectors = () =>
  Layer.effectContext(
    Effect.sync(() => {
      const refreshes: Refreshes["Service"] = { answers: [], seen: [] }
      const connectors = connectorsOf([
        {
          ...sandboxConnector,
          refresh: (credentials) =>
            Effect.suspend(() => {
              refreshes.seen.push(credentials)
              if (refreshes.answers.shift() === "revoked")
                return Effect.fail(new GrantRevoked({ message: "invalid_grant: the refresh token was revoked" }))
              return Effect.succeed({
                accessToken: `access-${refreshes.seen.length + 1}`,
                refreshToken: `refresh-${refreshes.seen.length + 1}`,
                expiresAt: null
              })
            })
        }
      ])
      return Context.make(Connectors, connectors).pipe(Context.add(Refreshes, refreshes))
    })
  )

const run = <A, E>(effect: Effect.Effect<A, E, any>) =>
  effect.pipe(Effect.provide(Layer.merge(pipelineLayer(), renewingConnectors())))

const post = (actor: Actor, body: CreatePostBody) =>
  Effect.map(createPost(actor, body, null), (r) => {
    if (r.kind !== "created") throw new Error(`expected a created post, got ${r.kind}`)
    return r.body.post.id
  })

const publishCalls = Effect.map(ScriptedNetwork, (net) => net.calls().filter((c) => c.kind === "publish"))
const targetOf = (actor: Actor, id: string) => Effect.map(getPost(actor, id), (r) => r.post.targets[0])

describe("what real networks do (scripted, TestClock)", () => {
  it.effect("a rate limit waits exactly for the window's reset and never uses up the retries", () =>
    run(
      Effect.gen(function* () {
        const f = yield* setUp()
        const net = yield* ScriptedNetwork
        // Seven throttled answers in a row: more than maxFailures (5), yet the post still goes out.
        net.script("", ...Array.from({ length: 7 }, () => Behaviour.rateLimited(90_000)))
        const id = yield* post(f.agent, { accountIds: f.accountIds, content: "Busy hour" })
        yield* startWorker(testOptions)
        yield* TestClock.adjust(8 * 90_000)
        assert.deepStrictEqual(
          (yield* publishCalls).map((c) => c.at),
          Array.from({ length: 8 }, (_, i) => i * 90_000)
        )
        assert.strictEqual((yield* getPost(f.agent, id)).post.status, "published")
      })
    )
  )

  it.effect("media still processing frees the worker and carries on from the same handle, without a second post", () =>
    run(
      Effect.gen(function* () {
        const f = yield* setUp()
        const net = yield* ScriptedNetwork
        net.script("", Behaviour.processing(30_000), Behaviour.processing(30_000))
        const id = yield* post(f.agent, { accountIds: f.accountIds, content: "A long video" })
        yield* startWorker(testOptions)
        yield* TestClock.adjust(1)
        assert.deepStrictEqual(
          (yield* (yield* JobQueue).pending()).map((j) => j.runAt),
          [30_000],
          "the job waits in the queue, not in a worker"
        )
        yield* TestClock.adjust(60_000)
        const calls = yield* publishCalls
        assert.deepStrictEqual(
          calls.map((c) => c.at),
          [0, 30_000, 60_000]
        )
        assert.strictEqual(new Set(calls.map((c) => c.handle)).size, 1, "every call carries the handle of the first")
        assert.strictEqual(net.published().length, 1)
        assert.strictEqual((yield* getPost(f.agent, id)).post.status, "published")
      })
    )
  )

  it.effect("refused credentials are renewed once and the call made again; the rotated refresh token is stored", () =>
    run(
      Effect.gen(function* () {
        const f = yield* setUp()
        const net = yield* ScriptedNetwork
        yield* storeCredentials(f.accountIds[0], {
          accessToken: "access-1",
          refreshToken: "refresh-1",
          expiresAt: null
        })
        const refreshes = yield* Refreshes
        refreshes.answers.push("ok")
        net.script("", Behaviour.unauthorized)
        const id = yield* post(f.agent, { accountIds: f.accountIds, content: "After a 401" })
        yield* startWorker(testOptions)
        yield* TestClock.adjust(testOptions.pollMs)
        assert.deepStrictEqual(refreshes.seen.at(-1), {
          accessToken: "access-1",
          refreshToken: "refresh-1",
          expiresAt: null
        })
        assert.deepStrictEqual((yield* publishCalls).length, 2)
        assert.strictEqual(net.published()[0].request.credentials?.accessToken, `access-${refreshes.seen.length + 1}`)
        assert.strictEqual((yield* getPost(f.agent, id)).post.status, "published")
        const stored = Option.getOrThrow(yield* (yield* CredentialStore).get(f.accountIds[0]))
        assert.notInclude(stored.sealed, "refresh-", "stored sealed, never in clear")
      })
    )
  )

  it.effect("a revoked grant marks the account for reconnection and fails its targets, with no retry loop", () =>
    run(
      Effect.gen(function* () {
        const f = yield* setUp()
        const net = yield* ScriptedNetwork
        yield* storeCredentials(f.accountIds[0], { accessToken: "a", refreshToken: "r", expiresAt: null })
        const refreshes = yield* Refreshes
        refreshes.answers.push("revoked")
        net.script("", Behaviour.unauthorized)
        const first = yield* post(f.agent, { accountIds: f.accountIds, content: "One" })
        yield* startWorker(testOptions)
        yield* TestClock.adjust(testOptions.pollMs)
        const target = yield* targetOf(f.agent, first)
        assert.strictEqual(target.status, "failed")
        assert.strictEqual(target.error?.code, "account_needs_reconnection")
        assert.include(target.error?.message ?? "", "invalid_grant")
        const account = Option.getOrThrow(yield* (yield* AccountRepo).findById(f.agent.workspaceId, f.accountIds[0]))
        assert.strictEqual(account.status, "needs_reconnection")
        // New posts to it are refused at once, and nothing more reaches the network.
        const refused = yield* Effect.flip(createPost(f.agent, { accountIds: f.accountIds, content: "Two" }, null))
        assert.strictEqual(refused.code, "account_needs_reconnection")
        yield* TestClock.adjust(3_600_000)
        assert.strictEqual((yield* publishCalls).length, 1)
      })
    )
  )

  it.effect("a network that says the grant is gone (revoked) is not asked again", () =>
    run(
      Effect.gen(function* () {
        const f = yield* setUp(2)
        const net = yield* ScriptedNetwork
        net.script("", Behaviour.revoked)
        const id = yield* post(f.agent, { accountIds: [f.accountIds[0]], content: "Revoked" })
        yield* startWorker(testOptions)
        yield* TestClock.adjust(testOptions.pollMs)
        assert.strictEqual((yield* targetOf(f.agent, id)).error?.code, "account_needs_reconnection")
        yield* TestClock.adjust(3_600_000)
        assert.strictEqual((yield* publishCalls).length, 1)
      })
    )
  )

  it.effect("a scheduled post to an account disconnected meanwhile fails with account_disconnected", () =>
    run(
      Effect.gen(function* () {
        const f = yield* setUp()
        const id = yield* post(f.agent, {
          accountIds: f.accountIds,
          content: "Later",
          scheduledFor: new Date(3_600_000).toISOString()
        })
        yield* disconnectAccount(f.person, f.accountIds[0])
        yield* startWorker(testOptions)
        yield* TestClock.adjust(3_600_000)
        const target = yield* targetOf(f.agent, id)
        assert.strictEqual(target.status, "failed")
        assert.strictEqual(target.error?.code, "account_disconnected")
        assert.strictEqual((yield* publishCalls).length, 0)
      })
    )
  )
})
