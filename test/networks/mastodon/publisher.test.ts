import { Effect, Exit } from "effect"
import { TestClock } from "effect/testing"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import type { PublishError } from "../../../application/ports/Publishers.ts"
import * as Mastodon from "../../../adapters/networks/mastodon/adapter.ts"
import { memoryRegistry } from "../../../adapters/networks/mastodon/apps.ts"
import * as Outbound from "../../../adapters/outbound/client.ts"
import { type FakeMastodon, startFakeMastodon } from "./fakeMastodon.ts"
import {
  connect,
  loopbackAllowed,
  mastodonOn,
  processingOf,
  publishedOf,
  request,
  settings,
  setNow,
  T0,
  upload
} from "./support.ts"

let fake: FakeMastodon
beforeAll(async () => {
  fake = await startFakeMastodon()
})
afterAll(() => fake?.close())
beforeEach(() => {
  fake.resetWindows()
  fake.state.rateLimit = 300
  fake.state.maxCharacters = 500
})

const run = <A, E>(effect: Effect.Effect<A, E>) =>
  Effect.runPromise(effect.pipe(Effect.provide([TestClock.layer(), loopbackAllowed])) as Effect.Effect<A, E>)

/** A connected account (alice) and the network, at T0 on both clocks. */
const setup = Effect.gen(function* () {
  yield* setNow(fake, T0)
  const { network, blobs } = yield* mastodonOn()
  fake.state.authorizeAs = "109001"
  const [connection] = yield* connect(network, fake.origin)
  return { network, blobs, connection: connection! }
})

const publishError = (exit: Exit.Exit<unknown, PublishError>) => {
  if (Exit.isSuccess(exit)) throw new Error("expected a failure")
  const error = exit.cause.reasons.find((r) => r._tag === "Fail")
  if (error === undefined || error._tag !== "Fail") throw new Error(`not a failure: ${JSON.stringify(exit.cause)}`)
  return error.error
}

describe("Mastodon publisher", () => {
  it("posts a status with a content warning and visibility, with an Idempotency-Key", () =>
    run(
      Effect.gen(function* () {
        const { network, connection } = yield* setup
        const req = request(connection, {
          content: "Spoilers ahead https://example.com/a/very/long/path/that/counts/as/twenty-three",
          options: { mastodon: { visibility: "unlisted", contentWarning: "Film plot" } }
        })
        const handle = yield* network.publisher.prepare(req)
        const done = publishedOf(yield* network.publisher.publish(req, handle))
        const made = fake.statuses.at(-1)!
        expect(made).toMatchObject({ visibility: "unlisted", spoilerText: "Film plot", inReplyToId: null })
        expect(done).toEqual({ externalId: made.id, url: `${fake.origin}/@alice/${made.id}` })
        const sent = fake.log.calls("POST", "/api/v1/statuses").at(-1)!
        expect(sent.headers["idempotency-key"]).toBe(JSON.parse(handle).key)
        expect(sent.headers.authorization).toBe(`Bearer ${connection.credentials!.accessToken}`)
      })
    ))

  it("posts a thread and a first comment as replies that keep the post's visibility and warning", () =>
    run(
      Effect.gen(function* () {
        const { network, connection } = yield* setup
        const from = fake.log.requests.length
        const root = publishedOf(
          yield* network.publisher.publish(
            request(connection, {
              content: "Root",
              options: { mastodon: { visibility: "private", contentWarning: "cw" } }
            })
          )
        )
        // Replies carry no per-network options: they take the parent's, as Mastodon's own app does.
        const reply = publishedOf(
          yield* network.publisher.publish(
            request(connection, {
              content: "Second",
              replyTo: { rootId: root.externalId, parentId: root.externalId }
            })
          )
        )
        const comment = publishedOf(
          yield* network.publisher.publish(
            request(connection, {
              content: "A first comment",
              replyTo: { rootId: root.externalId, parentId: reply.externalId }
            })
          )
        )
        // One look at the parent per reply.
        const looks = fake.log.requests
          .slice(from)
          .filter((c) => c.method === "GET" && c.path.startsWith("/api/v1/statuses/"))
        expect(looks.map((c) => c.path)).toEqual([
          `/api/v1/statuses/${root.externalId}`,
          `/api/v1/statuses/${reply.externalId}`
        ])
        const [r, t, c] = fake.statuses.slice(-3)
        expect(r).toMatchObject({ id: root.externalId, inReplyToId: null, visibility: "private" })
        expect(t).toMatchObject({
          id: reply.externalId,
          inReplyToId: root.externalId,
          visibility: "private",
          spoilerText: "cw"
        })
        expect(c).toMatchObject({ id: comment.externalId, inReplyToId: reply.externalId, visibility: "private" })
      })
    ))

  it("uploads images at once and waits for a video the instance processes (206) before posting", () =>
    run(
      Effect.gen(function* () {
        const { network, blobs, connection } = yield* setup
        const image = yield* upload(blobs, "image", "image/png", 2048)
        const video = yield* upload(blobs, "video", "video/mp4", 50_000)
        fake.state.processingLooks = 2
        const req = request(connection, { content: "With media", media: [image] })
        const handle = yield* network.publisher.prepare(req)
        // Images: processed at once (200), then the create on the next call.
        const uploaded = processingOf(yield* network.publisher.publish(req, handle))
        expect(uploaded.checkAfterMs).toBe(0)
        const withImage = publishedOf(yield* network.publisher.publish(req, uploaded.handle))
        const made = fake.statuses.find((s) => s.id === withImage.externalId)!
        expect(made.mediaIds).toHaveLength(1)
        expect(fake.media.get(made.mediaIds[0]!)).toMatchObject({ type: "image/png", bytes: 2048 })

        const videoReq = request(connection, { content: "A clip", media: [video] })
        let outcome = yield* network.publisher.publish(videoReq, yield* network.publisher.prepare(videoReq))
        const looks: Array<number> = []
        while (outcome._tag === "Processing") {
          looks.push(outcome.checkAfterMs)
          outcome = yield* network.publisher.publish(videoReq, outcome.handle)
        }
        // 202 on upload, two 206 looks, a 200 look, then the create.
        expect(looks).toEqual([5000, 5000, 5000, 0])
        const clip = fake.statuses.find((s) => s.id === outcome.published.externalId)!
        expect(fake.media.get(clip.mediaIds[0]!)).toMatchObject({ type: "video/mp4", bytes: 50_000 })
        expect(
          fake.log.calls("POST", "/api/v1/statuses").filter((c) => (c.body as any).status === "A clip")
        ).toHaveLength(1)
      })
    ))

  it("posts a poll with its duration in seconds", () =>
    run(
      Effect.gen(function* () {
        const { network, connection } = yield* setup
        publishedOf(
          yield* network.publisher.publish(
            request(connection, {
              content: "Tea or coffee?",
              poll: { options: ["Tea", "Coffee"], durationMinutes: 60 }
            })
          )
        )
        expect(fake.statuses.at(-1)!.poll).toEqual({ options: ["Tea", "Coffee"], expiresIn: 3600 })
      })
    ))

  it("holds a status to the instance's own limit, counted as Mastodon counts, before sending it", () =>
    run(
      Effect.gen(function* () {
        const { network, connection } = yield* setup
        fake.state.maxCharacters = 40
        const creates = fake.log.calls("POST", "/api/v1/statuses").length
        // 17 + a link (23) = 40: fits, however long the link; a remote mention counts only its username.
        const fits = "Seventeen chars: https://example.com/" + "x".repeat(100)
        yield* Effect.flatMap(network.publisher.publish(request(connection, { content: fits })), (o) =>
          Effect.sync(() => publishedOf(o))
        )
        publishedOf(
          yield* network.publisher.publish(
            request(connection, { content: "@bob@very.long.instance.example.org says hi, 40 chars." })
          )
        )
        const over = publishError(
          yield* Effect.exit(network.publisher.publish(request(connection, { content: `${fits}!` })))
        )
        expect(over.code).toBe("upstream_rejected")
        expect(over.message).toContain("up to 40 characters")
        expect(fake.log.calls("POST", "/api/v1/statuses").length).toBe(creates + 2)
      })
    ))

  it("reads the limit from GET /api/v1/instance on a server without v2", () =>
    run(
      Effect.gen(function* () {
        const { network, connection } = yield* setup
        fake.state.maxCharacters = 20
        fake.log.script("GET", "/api/v2/instance", { status: 404, body: { error: "Not found" } })
        const over = publishError(
          yield* Effect.exit(network.publisher.publish(request(connection, { content: "x".repeat(21) })))
        )
        expect(over.message).toContain("up to 20 characters")
        expect(fake.log.calls("GET", "/api/v1/instance")).not.toHaveLength(0)
      })
    ))

  it("refuses to call an instance whose address Herald does not call (loopback, unless allowed)", () =>
    run(
      Effect.gen(function* () {
        const { blobs, connection } = yield* setup
        const strict = yield* Mastodon.make(settings, blobs, memoryRegistry())
        const calls = fake.log.requests.length
        // Without HERALD_ALLOW_LOOPBACK: the outbound client's own setting, as a host gives it.
        const refused = publishError(
          yield* Effect.exit(
            strict.publisher.publish(request(connection)).pipe(Effect.provide(Outbound.layer({ allowLoopback: false })))
          )
        )
        expect(refused.reason._tag).toBe("Refused")
        expect(refused.message).toContain("loopback address")
        expect(fake.log.requests.length).toBe(calls)
      })
    ))

  it("passes on a 422 in the instance's own words, and a revoked token as needing reconnection", () =>
    run(
      Effect.gen(function* () {
        const { network, connection } = yield* setup
        fake.log.script("POST", "/api/v1/statuses", {
          status: 422,
          body: { error: "Validation failed: Text contains a word this instance refuses" }
        })
        const refused = publishError(yield* Effect.exit(network.publisher.publish(request(connection))))
        expect(refused.reason._tag).toBe("Refused")
        expect(refused.message).toContain("Text contains a word this instance refuses")

        fake.log.script("POST", "/api/v1/statuses", { status: 401, body: { error: "The access token is invalid" } })
        const invalid = publishError(yield* Effect.exit(network.publisher.publish(request(connection))))
        expect(invalid.reason._tag).toBe("Unauthorized")
        expect(invalid.code).toBe("account_needs_reconnection")

        fake.revoke("109001")
        const revoked = publishError(yield* Effect.exit(network.publisher.publish(request(connection))))
        expect(revoked.reason._tag).toBe("Revoked")
        expect(revoked.message).toContain("revoked")
      })
    ))

  it("waits for the reset a 429 names, without calling the instance again meanwhile", () =>
    run(
      Effect.gen(function* () {
        const { network, connection } = yield* setup
        const reset = new Date(T0 + 120_000).toISOString()
        fake.log.script("POST", "/api/v1/statuses", {
          status: 429,
          body: { error: "Too many requests" },
          headers: { "x-ratelimit-limit": "300", "x-ratelimit-remaining": "0", "x-ratelimit-reset": reset }
        })
        const limited = publishError(yield* Effect.exit(network.publisher.publish(request(connection))))
        expect(limited.reason._tag).toBe("RateLimited")
        expect(limited.retryAfterMs).toBe(120_000)
        const calls = fake.log.requests.length
        const again = publishError(yield* Effect.exit(network.publisher.publish(request(connection))))
        expect(again.reason._tag).toBe("RateLimited")
        expect(fake.log.requests.length).toBe(calls)
        yield* setNow(fake, T0 + 120_001)
        publishedOf(yield* network.publisher.publish(request(connection)))
      })
    ))

  it("closes the account's window when the instance says none is left, until its reset", () =>
    run(
      Effect.gen(function* () {
        const { network, connection } = yield* setup
        // Connecting used one call (verify_credentials); the limit leaves room for exactly what follows.
        fake.state.rateLimit = 3
        publishedOf(yield* network.publisher.publish(request(connection, { content: "one" })))
        publishedOf(yield* network.publisher.publish(request(connection, { content: "two" })))
        const calls = fake.log.requests.length
        const closed = publishError(
          yield* Effect.exit(network.publisher.publish(request(connection, { content: "three" })))
        )
        expect(closed.reason._tag).toBe("RateLimited")
        expect(fake.log.requests.length).toBe(calls)
      })
    ))

  it("sends a create whose answer was lost again with the same key: one status", () =>
    run(
      Effect.gen(function* () {
        const { network, connection } = yield* setup
        const req = request(connection, { content: "Lost answer" })
        const handle = yield* network.publisher.prepare(req)
        fake.log.script("POST", "/api/v1/statuses", { status: 200, dropAnswer: true })
        const lost = publishError(yield* Effect.exit(network.publisher.publish(req, handle)))
        expect(lost.reason._tag).toBe("OutcomeUnknown")
        expect(yield* network.publisher.recover!(req, handle)).toEqual({ _tag: "NotPublished" })
        const done = publishedOf(yield* network.publisher.publish(req, handle))
        expect(fake.statuses.filter((s) => s.text === "Lost answer")).toEqual([
          expect.objectContaining({ id: done.externalId })
        ])
        // Past the key's hour, only a person can tell.
        yield* setNow(fake, T0 + 60 * 60_000)
        expect(yield* network.publisher.recover!(req, handle)).toEqual({ _tag: "Unknown" })
      })
    ))

  it("tells the dry run the instance's own limit, and which statuses it would refuse", () =>
    run(
      Effect.gen(function* () {
        const { network, connection } = yield* setup
        fake.state.maxCharacters = 30
        const { accountOf } = yield* Effect.promise(() => import("./support.ts"))
        const advise = (content: string, thread: ReadonlyArray<string>, cw?: string) =>
          network.publisher.advise!(accountOf(connection), T0, {
            media: [],
            options: cw === undefined ? {} : { mastodon: { contentWarning: cw } },
            text: { content, thread, firstComment: null }
          })
        const fits = yield* advise("Short https://example.com/a/long/link", [])
        expect(fits).toEqual([
          `${fake.host} takes statuses of up to 30 characters (Mastodon's counting: a link counts 23, a mention only its username, the content warning counts too); the longest here uses 29.`
        ])
        const over = yield* advise("Short", ["x".repeat(31)], "cw")
        expect(over[1]).toContain(`A status of this post is over ${fake.host}'s limit of 30`)
      })
    ))
})
