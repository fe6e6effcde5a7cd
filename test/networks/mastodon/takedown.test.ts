import { Effect, Exit } from "effect"
import { TestClock } from "effect/testing"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import type { Connection } from "../../../application/ports/Connectors.ts"
import type { Network } from "../../../application/ports/Network.ts"
import type { PublishError, UnpublishRequest } from "../../../application/ports/Publishers.ts"
import { normalise } from "../../../domain/metrics.ts"
import { type FakeMastodon, startFakeMastodon } from "./fakeMastodon.ts"
import { accountOf, connect, loopbackAllowed, mastodonOn, publishedOf, request, setNow, T0 } from "./support.ts"

let fake: FakeMastodon
beforeAll(async () => {
  fake = await startFakeMastodon()
})
afterAll(() => fake?.close())
beforeEach(() => {
  fake.resetWindows()
  fake.state.statusesIndex = true
})

const run = <A, E>(effect: Effect.Effect<A, E>) =>
  Effect.runPromise(effect.pipe(Effect.provide([TestClock.layer(), loopbackAllowed])) as Effect.Effect<A, E>)

const setup = Effect.gen(function* () {
  yield* setNow(fake, T0)
  const { network } = yield* mastodonOn()
  fake.state.authorizeAs = "109001"
  const [connection] = yield* connect(network, fake.origin)
  return { network, connection: connection! }
})

const removal = (network: Network, connection: Connection, externalId: string, kind: UnpublishRequest["kind"]) =>
  network.publisher.unpublish!({
    account: accountOf(connection),
    credentials: connection.credentials,
    externalId,
    kind
  })

const errorOf = (exit: Exit.Exit<unknown, PublishError>) => {
  if (Exit.isSuccess(exit)) throw new Error("expected a failure")
  const reason = exit.cause.reasons.find((r) => r._tag === "Fail")
  if (reason === undefined || reason._tag !== "Fail") throw new Error(`not a failure: ${JSON.stringify(exit.cause)}`)
  return reason.error
}

const post = (network: Network, connection: Connection, content: string, parent?: string) =>
  Effect.map(
    network.publisher.publish(
      request(connection, {
        content,
        ...(parent === undefined ? {} : { replyTo: { rootId: parent, parentId: parent } })
      })
    ),
    publishedOf
  )

describe("Mastodon take-down (DELETE /api/v1/statuses/:id)", () => {
  it("deletes the status, its thread's replies and its first comment, one DELETE each; already gone is done", () =>
    run(
      Effect.gen(function* () {
        const { network, connection } = yield* setup
        const root = yield* post(network, connection, "Going away")
        const reply = yield* post(network, connection, "Its reply", root.externalId)
        const comment = yield* post(network, connection, "Its first comment", root.externalId)
        const before = fake.log.calls("DELETE", /^\/api\/v1\/statuses\//).length
        yield* removal(network, connection, comment.externalId, "comment")
        yield* removal(network, connection, reply.externalId, "reply")
        yield* removal(network, connection, root.externalId, "post")
        const calls = fake.log.calls("DELETE", /^\/api\/v1\/statuses\//).slice(before)
        expect(calls.map((c) => c.path)).toEqual([comment, reply, root].map((s) => `/api/v1/statuses/${s.externalId}`))
        expect(calls[0]!.headers.authorization).toBe(`Bearer ${connection.credentials!.accessToken}`)
        expect(fake.deleted.slice(-3)).toEqual([comment.externalId, reply.externalId, root.externalId])
        expect(fake.statuses.some((s) => s.id === root.externalId)).toBe(false)
        // A repeat after a lost answer: the instance answers 404, which is the status being gone.
        yield* removal(network, connection, root.externalId, "post")
        expect(fake.log.calls("DELETE", /^\/api\/v1\/statuses\//).length - before).toBe(4)
      })
    ))

  it("401 is the token refused (revoked: reconnect); 429 waits for the deletes' reset without calling again", () =>
    run(
      Effect.gen(function* () {
        const { network, connection } = yield* setup
        const kept = yield* post(network, connection, "Stays a while")
        // The deletes' own window (30 in 30 minutes) used up: the instance's 429 names its reset.
        fake.state.deleteLimit = 0
        const calls = fake.log.calls("DELETE", /^\/api\/v1\/statuses\//).length + 1
        const limited = errorOf(yield* Effect.exit(removal(network, connection, kept.externalId, "post")))
        expect(limited.reason._tag).toBe("RateLimited")
        expect(limited.retryAfterMs).toBe(Date.parse("2026-11-21T10:30:00Z") - T0)
        expect(fake.log.calls("DELETE", /^\/api\/v1\/statuses\//)).toHaveLength(calls)
        const again = errorOf(yield* Effect.exit(removal(network, connection, kept.externalId, "post")))
        expect(again.reason._tag).toBe("RateLimited")
        expect(fake.log.calls("DELETE", /^\/api\/v1\/statuses\//)).toHaveLength(calls)
        // Publishing is not held up: its window is the API's, not the deletes'.
        yield* post(network, connection, "Still posting")
        yield* setNow(fake, Date.parse("2026-11-21T10:30:01Z"))
        fake.state.deleteLimit = 30
        fake.revoke("109001")
        const revoked = errorOf(yield* Effect.exit(removal(network, connection, kept.externalId, "post")))
        expect(revoked.reason._tag).toBe("Revoked")
        expect(fake.statuses.some((s) => s.id === kept.externalId)).toBe(true)
      })
    ))

  it("an instance answering 5xx, or not found in DNS now, is unavailable (retried later), not a removal", () =>
    run(
      Effect.gen(function* () {
        const { network, connection } = yield* setup
        const kept = yield* post(network, connection, "Survives the outage")
        fake.log.script("DELETE", `/api/v1/statuses/${kept.externalId}`, { status: 503, body: { error: "Down" } })
        const down = errorOf(yield* Effect.exit(removal(network, connection, kept.externalId, "post")))
        expect(down.reason._tag).toBe("Unavailable")
        expect(down.retryable).toBe(true)
        // An instance whose name does not resolve now is tried again later, not refused for good.
        const credentials = {
          ...connection.credentials!,
          extra: { instance: "https://mastodon.invalid", accountId: "1" }
        }
        const unresolved = errorOf(
          yield* Effect.exit(removal(network, { ...connection, credentials }, kept.externalId, "post"))
        )
        expect([unresolved.reason._tag, unresolved.retryable]).toEqual(["Unavailable", true])
        expect(unresolved.message).toContain("could not be found")
      })
    ))
})

describe("Mastodon figures (GET /api/v1/statuses?id[]=)", () => {
  it("reads many statuses in one call, under Mastodon's names; a deleted one is left out", () =>
    run(
      Effect.gen(function* () {
        const { network, connection } = yield* setup
        const a = yield* post(network, connection, "figures a")
        const b = yield* post(network, connection, "figures b")
        yield* post(network, connection, "a reply to a", a.externalId)
        const gone = yield* post(network, connection, "deleted later")
        yield* removal(network, connection, gone.externalId, "post")
        const status = fake.statuses.find((s) => s.id === a.externalId)!
        status.favourites = 7
        status.reblogs = 2
        expect(network.publisher.metrics!.batch).toBe(20)
        const before = fake.log.calls("GET", "/api/v1/statuses").length
        const answer = yield* network.publisher.metrics!.read({
          account: accountOf(connection),
          credentials: connection.credentials,
          posts: [a, b, gone].map((p) => ({ externalId: p.externalId, publishedAt: T0 }))
        })
        expect(fake.log.calls("GET", "/api/v1/statuses").length - before).toBe(1)
        expect(fake.log.calls("GET", "/api/v1/statuses").at(-1)!.headers.authorization).toBe(
          `Bearer ${connection.credentials!.accessToken}`
        )
        if (answer._tag !== "Read") throw new Error(JSON.stringify(answer))
        expect(answer.figures.get(a.externalId)).toEqual({ favourites_count: 7, replies_count: 1, reblogs_count: 2 })
        expect(answer.figures.get(b.externalId)).toEqual({ favourites_count: 0, replies_count: 0, reblogs_count: 0 })
        expect(answer.figures.has(gone.externalId)).toBe(false)
        const common = normalise("mastodon", answer.figures.get(a.externalId)!)
        expect([common.likes.value, common.replies.value, common.reposts.value]).toEqual([7, 1, 2])
        expect(common.views.value).toBeNull()
      })
    ))

  it("on a server before 4.3 (no GET /api/v1/statuses: 404) reads each status, a deleted one left out", () =>
    run(
      Effect.gen(function* () {
        const { network, connection } = yield* setup
        const a = yield* post(network, connection, "old server a")
        const gone = yield* post(network, connection, "old server gone")
        yield* removal(network, connection, gone.externalId, "post")
        fake.statuses.find((s) => s.id === a.externalId)!.favourites = 3
        fake.state.statusesIndex = false
        const before = fake.log.requests.length
        const answer = yield* network.publisher.metrics!.read({
          account: accountOf(connection),
          credentials: connection.credentials,
          posts: [a, gone].map((p) => ({ externalId: p.externalId, publishedAt: T0 }))
        })
        expect(fake.log.requests.slice(before).map((r) => `${r.method} ${r.path}`)).toEqual([
          "GET /api/v1/statuses",
          `GET /api/v1/statuses/${a.externalId}`,
          `GET /api/v1/statuses/${gone.externalId}`
        ])
        if (answer._tag !== "Read") throw new Error(JSON.stringify(answer))
        expect(answer.figures.get(a.externalId)).toMatchObject({ favourites_count: 3 })
        expect([...answer.figures.keys()]).toEqual([a.externalId])
      })
    ))

  it("a 429 waits for the instance's reset without calling it again; 401 is the token refused", () =>
    run(
      Effect.gen(function* () {
        const { network, connection } = yield* setup
        const a = yield* post(network, connection, "throttled figures")
        const read = network.publisher.metrics!.read({
          account: accountOf(connection),
          credentials: connection.credentials,
          posts: [{ externalId: a.externalId, publishedAt: T0 }]
        })
        const reset = "2026-11-21T10:05:00.000Z"
        fake.log.script("GET", "/api/v1/statuses", {
          status: 429,
          body: { error: "Too many requests" },
          headers: { "x-ratelimit-limit": "300", "x-ratelimit-remaining": "0", "x-ratelimit-reset": reset }
        })
        const limited = errorOf(yield* Effect.exit(read))
        expect(limited.reason._tag).toBe("RateLimited")
        expect(limited.retryAfterMs).toBe(Date.parse(reset) - T0)
        const calls = fake.log.requests.length
        expect(errorOf(yield* Effect.exit(read)).reason._tag).toBe("RateLimited")
        expect(fake.log.requests.length).toBe(calls)
        yield* setNow(fake, Date.parse(reset) + 1_000)
        expect((yield* read)._tag).toBe("Read")
        fake.log.script("GET", "/api/v1/statuses", { status: 401, body: { error: "The access token is invalid" } })
        expect(errorOf(yield* Effect.exit(read)).reason._tag).toBe("Unauthorized")
      })
    ))
})
