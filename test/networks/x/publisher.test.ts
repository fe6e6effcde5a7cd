import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import type { PublishOutcome } from "../../../application/ports/Publishers.ts"
import { type FakeX, startFakeX } from "./fakeX.ts"
import { connect, publishedOf, request, setNow, T0, upload, xOn } from "./support.ts"
import { outcomeUnknown } from "../shared/reason.ts"

let fake: FakeX
beforeAll(async () => void (fake = await startFakeX()))
afterAll(() => fake.close())

let day = 0
/** A connected account on a fresh X network (its own gate), a day after the last test's (so X's windows are fresh), with X's usual limits. */
const connected = Effect.gen(function* () {
  yield* setNow(fake, T0 + ++day * 86_400_000)
  fake.state.limits = { tweets: 100, tweetsPerDay: 2400, other: 900, deletes: 50 }
  const { network, blobs } = yield* xOn(fake)
  const { credentials } = yield* connect(network)
  return { network, blobs, credentials: credentials!, publisher: network.publisher }
})

const tweetBodies = (since: number) =>
  fake
    .calls("POST", "/2/tweets")
    .slice(since)
    .map((r) => r.body as any)

describe("X publisher against the fake X", () => {
  it.effect("text: one POST /2/tweets with the bearer token, the post's URL on x.com", () =>
    Effect.gen(function* () {
      const { publisher, credentials } = yield* connected
      const before = fake.calls("POST", "/2/tweets").length
      const handle = yield* publisher.prepare!(request(credentials, { content: "First post & more <3" }))
      const { externalId, url } = publishedOf(
        yield* publisher.publish(request(credentials, { content: "First post & more <3" }), handle)
      )
      assert.strictEqual(url, `https://x.com/alice/status/${externalId}`)
      const [call] = fake.calls("POST", "/2/tweets").slice(before)
      assert.deepStrictEqual(call.body, { text: "First post & more <3" })
      assert.strictEqual(call.headers.authorization, `Bearer ${credentials.accessToken}`)
      assert.strictEqual(fake.tweets.find((t) => t.id === externalId)?.text, "First post & more <3")
    })
  )

  it.effect("a thread and a first comment are replies, each to the post before it", () =>
    Effect.gen(function* () {
      const { publisher, credentials } = yield* connected
      const before = fake.calls("POST", "/2/tweets").length
      const root = publishedOf(yield* publisher.publish(request(credentials, { content: "Thread 1/3" })))
      const second = publishedOf(
        yield* publisher.publish(
          request(credentials, {
            content: "Thread 2/3",
            replyTo: { rootId: root.externalId, parentId: root.externalId }
          })
        )
      )
      const third = publishedOf(
        yield* publisher.publish(
          request(credentials, {
            content: "Thread 3/3",
            replyTo: { rootId: root.externalId, parentId: second.externalId }
          })
        )
      )
      const comment = publishedOf(
        yield* publisher.publish(
          request(credentials, {
            content: "First comment",
            replyTo: { rootId: root.externalId, parentId: root.externalId }
          })
        )
      )
      assert.deepStrictEqual(tweetBodies(before), [
        { text: "Thread 1/3" },
        { text: "Thread 2/3", reply: { in_reply_to_tweet_id: root.externalId } },
        { text: "Thread 3/3", reply: { in_reply_to_tweet_id: second.externalId } },
        { text: "First comment", reply: { in_reply_to_tweet_id: root.externalId } }
      ])
      assert.strictEqual(fake.tweets.find((t) => t.id === third.externalId)?.replyTo, second.externalId)
      assert.strictEqual(fake.tweets.find((t) => t.id === comment.externalId)?.replyTo, root.externalId)
    })
  )

  it.effect("a poll: options and duration_minutes", () =>
    Effect.gen(function* () {
      const { publisher, credentials } = yield* connected
      const before = fake.calls("POST", "/2/tweets").length
      publishedOf(
        yield* publisher.publish(
          request(credentials, {
            content: "Tabs or spaces?",
            poll: { options: ["Tabs", "Spaces"], durationMinutes: 1440 }
          })
        )
      )
      assert.deepStrictEqual(tweetBodies(before), [
        { text: "Tabs or spaces?", poll: { options: ["Tabs", "Spaces"], duration_minutes: 1440 } }
      ])
    })
  )

  it.effect("four images: four simple uploads (tweet_image), then one post with the ids in order", () =>
    Effect.gen(function* () {
      const { publisher, credentials, blobs } = yield* connected
      const images = [
        yield* upload(blobs, "image", "image/jpeg", 1500),
        yield* upload(blobs, "image", "image/png", 2_500_000),
        yield* upload(blobs, "image", "image/webp", 700),
        yield* upload(blobs, "image", "image/jpeg", 900)
      ]
      const uploadsBefore = fake.calls("POST", "/2/media/upload").length
      const before = fake.calls("POST", "/2/tweets").length
      publishedOf(yield* publisher.publish(request(credentials, { content: "Four pictures", media: images })))
      const uploads = fake.calls("POST", "/2/media/upload").slice(uploadsBefore)
      assert.strictEqual(uploads.length, 4)
      for (const u of uploads) assert.strictEqual((u.body as any).media_category, "tweet_image")
      assert.sameMembers(
        uploads.map((u) => (u.body as any).media.bytes),
        [1500, 2_500_000, 700, 900]
      )
      const [tweet] = tweetBodies(before)
      const ids: Array<string> = tweet.media.media_ids
      // In the post's order, whatever order the uploads finished in.
      assert.deepStrictEqual(
        ids.map((id) => fake.media.get(id)?.totalBytes),
        [1500, 2_500_000, 700, 900]
      )
    })
  )

  it.effect(
    "a video: chunked upload in 4 MiB segments, three STATUS polls as Processing outcomes from one handle, then the post",
    () =>
      Effect.gen(function* () {
        const { publisher, credentials, blobs } = yield* connected
        fake.state.statusPolls = 3
        const video = yield* upload(blobs, "video", "video/mp4", 9 * 1024 * 1024 + 123)
        const req = request(credentials, { content: "A video", media: [video] })
        const start = fake.requests.length
        const handle = yield* publisher.prepare!(req)
        const first = yield* publisher.publish(req, handle)
        assert.strictEqual(first._tag, "Processing")
        if (first._tag !== "Processing") return
        assert.strictEqual(first.checkAfterMs, 1000)
        const sent = fake.requests.slice(start)
        assert.deepStrictEqual(
          sent.map((r) => `${r.method} ${r.path.replace(/\d{10,}/, ":id")}`),
          [
            "POST /2/media/upload/initialize",
            "POST /2/media/upload/:id/append",
            "POST /2/media/upload/:id/append",
            "POST /2/media/upload/:id/append",
            "POST /2/media/upload/:id/finalize"
          ]
        )
        assert.deepStrictEqual(sent[0].body, {
          media_type: "video/mp4",
          total_bytes: 9 * 1024 * 1024 + 123,
          media_category: "tweet_video"
        })
        assert.deepStrictEqual(
          sent.slice(1, 4).map((r) => [(r.body as any).segment_index, (r.body as any).media.bytes]),
          [
            ["0", 4 * 1024 * 1024],
            ["1", 4 * 1024 * 1024],
            ["2", 1024 * 1024 + 123]
          ]
        )
        // While X processes, a lost attempt needs no call to tell that nothing was posted.
        const beforeRecover = fake.requests.length
        assert.deepStrictEqual(yield* publisher.recover!(req, first.handle), { _tag: "NotPublished" })
        assert.strictEqual(fake.requests.length, beforeRecover)
        const outcomes: Array<PublishOutcome> = [first]
        while (outcomes.at(-1)!._tag === "Processing") {
          const last = outcomes.at(-1)!
          outcomes.push(yield* publisher.publish(req, last._tag === "Processing" ? last.handle : undefined))
          assert.isBelow(outcomes.length, 10)
        }
        const statuses = fake.calls("GET", "/2/media/upload").slice(-3)
        assert.deepStrictEqual(
          statuses.map((s) => s.query.command),
          ["STATUS", "STATUS", "STATUS"]
        )
        assert.deepStrictEqual(
          outcomes.map((o) => (o._tag === "Processing" ? o.checkAfterMs : o._tag)),
          [1000, 5000, 5000, 0, "Published"]
        )
        const videoId = sent[4].path.split("/")[4]
        assert.deepStrictEqual(fake.calls("POST", "/2/tweets").at(-1)!.body, {
          text: "A video",
          media: { media_ids: [videoId] }
        })
        assert.strictEqual(
          fake.requests.slice(start).filter((r) => r.path === "/2/media/upload/initialize").length,
          1,
          "uploaded once"
        )
      })
  )

  it.effect(
    "processed media waits out a 429 on its post with the uploads kept (a Processing answer, not a new upload)",
    () =>
      Effect.gen(function* () {
        const { publisher, credentials, blobs } = yield* connected
        fake.state.statusPolls = 1
        const video = yield* upload(blobs, "video", "video/mp4", 2000)
        const req = request(credentials, { content: "Video in a busy window", media: [video] })
        const initializes = fake.calls("POST", "/2/media/upload/initialize").length
        const processed = yield* publisher.publish(req)
        const ready = processed._tag === "Processing" ? yield* publisher.publish(req, processed.handle) : processed
        assert.strictEqual(ready._tag, "Processing")
        if (ready._tag !== "Processing") return
        const now = fake.state.clock!
        fake.script("POST", "/2/tweets", {
          status: 429,
          body: { title: "Too Many Requests", detail: "Too Many Requests", type: "about:blank", status: 429 },
          headers: {
            "x-rate-limit-limit": "100",
            "x-rate-limit-remaining": "0",
            "x-rate-limit-reset": String(Math.ceil(now / 1000) + 300)
          }
        })
        const throttled = yield* publisher.publish(req, ready.handle)
        assert.deepStrictEqual(throttled, {
          _tag: "Processing",
          handle: ready.handle,
          checkAfterMs: Math.ceil(now / 1000) * 1000 + 300_000 - now
        })
        yield* setNow(fake, Math.ceil(now / 1000) * 1000 + 300_000)
        publishedOf(yield* publisher.publish(req, ready.handle))
        assert.strictEqual(fake.calls("POST", "/2/media/upload/initialize").length, initializes + 1, "uploaded once")
      })
  )

  it.effect("a GIF goes up chunked as tweet_gif", () =>
    Effect.gen(function* () {
      const { publisher, credentials, blobs } = yield* connected
      fake.state.statusPolls = 1
      const gif = yield* upload(blobs, "image", "image/gif", 300_000)
      let outcome = yield* publisher.publish(request(credentials, { content: "A GIF", media: [gif] }))
      while (outcome._tag === "Processing")
        outcome = yield* publisher.publish(request(credentials, { content: "A GIF", media: [gif] }), outcome.handle)
      assert.strictEqual(outcome._tag, "Published")
      assert.deepInclude(fake.calls("POST", "/2/media/upload/initialize").at(-1)!.body as object, {
        media_type: "image/gif",
        media_category: "tweet_gif"
      })
    })
  )

  it.effect("processing that fails is upstream_rejected with X's error", () =>
    Effect.gen(function* () {
      const { publisher, credentials, blobs } = yield* connected
      fake.state.failProcessing = true
      const video = yield* upload(blobs, "video", "video/mp4", 1000)
      const req = request(credentials, { content: "Broken video", media: [video] })
      const first = yield* publisher.publish(req)
      const error = yield* Effect.flip(publisher.publish(req, first._tag === "Processing" ? first.handle : undefined))
      assert.strictEqual(error.code, "upstream_rejected")
      assert.include(error.message, "Invalid or Unsupported media")
    })
  )

  it.effect(
    "duplicate text is duplicate_content; another 403 is upstream_rejected with X's message; 401 is unauthorized",
    () =>
      Effect.gen(function* () {
        const { publisher, credentials } = yield* connected
        publishedOf(yield* publisher.publish(request(credentials, { content: "Said once" })))
        const duplicate = yield* Effect.flip(publisher.publish(request(credentials, { content: "Said once" })))
        assert.strictEqual(duplicate.code, "duplicate_content")
        assert.strictEqual(duplicate.message, "You are not allowed to create a Tweet with duplicate content.")
        assert.isFalse(duplicate.retryable)
        fake.script("POST", "/2/tweets", {
          status: 403,
          body: {
            title: "Forbidden",
            type: "about:blank",
            status: 403,
            detail: "You are not permitted to perform this action."
          }
        })
        const forbidden = yield* Effect.flip(publisher.publish(request(credentials, { content: "Not allowed" })))
        assert.strictEqual(forbidden.code, "upstream_rejected")
        assert.strictEqual(forbidden.message, "You are not permitted to perform this action.")
        const invalid = yield* Effect.flip(
          publisher.publish(
            request(credentials, { content: "Bad poll", poll: { options: ["only one"], durationMinutes: 60 } })
          )
        )
        assert.strictEqual(invalid.code, "upstream_rejected")
        assert.include(invalid.message, "The poll is invalid.")
        // Herald refuses such a text at create; a publisher handed one gets X's refusal in X's words.
        const tooLong = yield* Effect.flip(publisher.publish(request(credentials, { content: "日".repeat(141) })))
        assert.deepStrictEqual([tooLong.code, tooLong.retryable], ["upstream_rejected", false])
        assert.include(tooLong.message, "Your Tweet text is too long.")
        fake.expireAccess("1001")
        const expired = yield* Effect.flip(publisher.publish(request(credentials, { content: "With an old token" })))
        assert.strictEqual(expired.reason._tag, "Unauthorized")
      })
  )

  it.effect("a 429 is rateLimited, waiting until x-rate-limit-reset; a spent 24-hour cap waits for its own reset", () =>
    Effect.gen(function* () {
      const { publisher, credentials } = yield* connected
      const now = fake.state.clock!
      fake.script("POST", "/2/tweets", {
        status: 429,
        body: { title: "Too Many Requests", detail: "Too Many Requests", type: "about:blank", status: 429 },
        headers: {
          "x-rate-limit-limit": "100",
          "x-rate-limit-remaining": "0",
          "x-rate-limit-reset": String(Math.ceil(now / 1000) + 90)
        }
      })
      const limited = yield* Effect.flip(publisher.publish(request(credentials, { content: "Busy" })))
      assert.strictEqual(limited.reason._tag, "RateLimited")
      assert.strictEqual(limited.code, "rate_limited")
      assert.strictEqual(limited.retryAfterMs, Math.ceil(now / 1000) * 1000 + 90_000 - now)
      yield* setNow(fake, now + 91_000)
      fake.script("POST", "/2/tweets", {
        status: 429,
        body: { title: "Too Many Requests", detail: "Too Many Requests", type: "about:blank", status: 429 },
        headers: {
          "x-rate-limit-limit": "100",
          "x-rate-limit-remaining": "97",
          "x-rate-limit-reset": String(Math.ceil(now / 1000) + 900),
          "x-user-limit-24hour-limit": "100",
          "x-user-limit-24hour-remaining": "0",
          "x-user-limit-24hour-reset": String(Math.ceil(now / 1000) + 5 * 3600)
        }
      })
      const daily = yield* Effect.flip(publisher.publish(request(credentials, { content: "Busy day" })))
      assert.strictEqual(daily.reason._tag, "RateLimited")
      assert.strictEqual(daily.retryAfterMs, Math.ceil(now / 1000) * 1000 + 5 * 3600_000 - (now + 91_000))
    })
  )

  it.effect("the gate: after X says 0 remaining, the next post waits for the reset without calling X", () =>
    Effect.gen(function* () {
      const { publisher, credentials, blobs } = yield* connected
      fake.state.limits = { ...fake.state.limits, tweets: 2 }
      publishedOf(yield* publisher.publish(request(credentials, { content: "one" })))
      publishedOf(yield* publisher.publish(request(credentials, { content: "two" })))
      const calls = fake.calls("POST", "/2/tweets").length
      const refused = yield* Effect.flip(publisher.publish(request(credentials, { content: "three" })))
      assert.strictEqual(refused.reason._tag, "RateLimited")
      assert.strictEqual(fake.calls("POST", "/2/tweets").length, calls, "X was not called")
      const now = fake.state.clock!
      // Media for a post that cannot go out is not uploaded either.
      const uploads = fake.calls("POST", /\/2\/media\/upload/).length
      assert.isTrue(
        (yield* Effect.flip(
          publisher.publish(
            request(credentials, { content: "three", media: [yield* upload(blobs, "image", "image/png", 10)] })
          )
        )).reason._tag === "RateLimited"
      )
      assert.strictEqual(fake.calls("POST", /\/2\/media\/upload/).length, uploads)
      yield* setNow(fake, now + refused.retryAfterMs! - 1)
      assert.isTrue(
        (yield* Effect.flip(publisher.publish(request(credentials, { content: "three" })))).reason._tag ===
          "RateLimited"
      )
      assert.strictEqual(fake.calls("POST", "/2/tweets").length, calls)
      yield* setNow(fake, now + refused.retryAfterMs!)
      publishedOf(yield* publisher.publish(request(credentials, { content: "three" })))
      assert.strictEqual(fake.calls("POST", "/2/tweets").length, calls + 1)
    })
  )

  it.effect("a lost answer: the post is found among the account's recent posts, never sent twice", () =>
    Effect.gen(function* () {
      const { publisher, credentials } = yield* connected
      const root = publishedOf(yield* publisher.publish(request(credentials, { content: "Root of a thread" })))
      yield* setNow(fake, fake.state.clock! + 1000)
      const req = request(credentials, {
        content: "Reply & a link https://example.org/a?b=c&d=e",
        replyTo: { rootId: root.externalId, parentId: root.externalId }
      })
      const handle = yield* publisher.prepare!(req)
      fake.script("POST", "/2/tweets", { status: 201, dropAnswer: true })
      const lost = yield* Effect.exit(publisher.publish(req, handle))
      assert.isTrue(outcomeUnknown(lost), "an unknown outcome is OutcomeUnknown for the pipeline")
      const made = fake.tweets.at(-1)!
      assert.strictEqual(made.text, req.content)
      const tweetsBefore = fake.calls("POST", "/2/tweets").length
      const recovered = yield* publisher.recover!(req, handle)
      assert.deepStrictEqual(recovered, {
        _tag: "Published",
        published: { externalId: made.id, url: `https://x.com/alice/status/${made.id}` }
      })
      assert.strictEqual(fake.calls("POST", "/2/tweets").length, tweetsBefore)
      const read = fake.calls("GET", "/2/users/1001/tweets").at(-1)!
      assert.strictEqual(read.query.max_results, "5")
      assert.strictEqual(
        read.query.start_time,
        new Date(Math.floor((fake.state.clock! - 120_000) / 1000) * 1000).toISOString().replace(".000Z", "Z")
      )
      // The same text replying to another post is not it.
      assert.deepStrictEqual(yield* publisher.recover!({ ...req, replyTo: { rootId: "1", parentId: "1" } }, handle), {
        _tag: "NotPublished"
      })
    })
  )

  it.effect("X down when the post was sent: not found afterwards, so it is sent again (and only then)", () =>
    Effect.gen(function* () {
      const { publisher, credentials } = yield* connected
      const req = request(credentials, { content: "Sent while X was down" })
      const handle = yield* publisher.prepare!(req)
      fake.script("POST", "/2/tweets", {
        status: 503,
        body: { title: "Service Unavailable", detail: "Service Unavailable", type: "about:blank", status: 503 }
      })
      assert.isTrue(Exit.isFailure(yield* Effect.exit(publisher.publish(req, handle))))
      assert.deepStrictEqual(yield* publisher.recover!(req, handle), { _tag: "NotPublished" })
      const { externalId } = publishedOf(yield* publisher.publish(req, handle))
      assert.strictEqual(
        fake.tweets
          .filter((t) => t.text === req.content)
          .map((t) => t.id)
          .join(),
        externalId
      )
    })
  )
})
