import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { outcomeUnknown, viewOf } from "../shared/reason.ts"
import { type FakeReddit, startFakeReddit } from "./fakeReddit.ts"
import { connectedOn, processingOf, publishedOf, request, upload } from "./support.ts"

let fake: FakeReddit
beforeAll(async () => void (fake = await startFakeReddit()))
afterAll(() => fake.close())

let day = 0
const connected = (as = "alice") => connectedOn(fake, ++day, as)

describe("Reddit: lost answers, take-down, figures and dry-run advice", () => {
  it.effect(
    "a submit whose answer was lost is found among the account's posts since the attempt began: no second post",
    () =>
      Effect.gen(function* () {
        const { publisher, credentials, account } = yield* connected()
        const req = request(account, credentials, { title: "Lost answer" })
        const handle = yield* publisher.prepare(req)
        fake.script("POST", "/api/submit", { status: 200, dropAnswer: true })
        const exit = yield* Effect.exit(publisher.publish(req, handle))
        assert.isTrue(outcomeUnknown(exit))
        const made = fake.posts.at(-1)!
        assert.strictEqual(made.title, "Lost answer")
        const recovery = yield* publisher.recover!(req, handle)
        assert.deepStrictEqual(recovery, {
          _tag: "Published",
          published: {
            externalId: `t3_${made.id}`,
            url: `https://www.reddit.com/r/HeraldTest/comments/${made.id}/lost_answer/`
          }
        })
        assert.lengthOf(
          fake.posts.filter((p) => p.title === "Lost answer"),
          1
        )
      })
  )

  it.effect("a 503 that made nothing is NotPublished, even beside an older post with the same title", () =>
    Effect.gen(function* () {
      const { publisher, credentials, account } = yield* connected()
      const req = request(account, credentials, { title: "Same title" })
      publishedOf(yield* publisher.publish(req))
      yield* TestClock.adjust(3_600_000)
      fake.state.clock! += 3_600_000
      const handle = yield* publisher.prepare(req)
      fake.script("POST", "/api/submit", { status: 503, body: { message: "Service Unavailable", error: 503 } })
      assert.isTrue(outcomeUnknown(yield* Effect.exit(publisher.publish(req, handle))))
      assert.deepStrictEqual(yield* publisher.recover!(req, handle), { _tag: "NotPublished" })
    })
  )

  it.effect("a first comment whose answer was lost is found among the account's comments", () =>
    Effect.gen(function* () {
      const { publisher, credentials, account } = yield* connected()
      const post = publishedOf(yield* publisher.publish(request(account, credentials)))
      const comment = request(
        account,
        credentials,
        {},
        {
          content: "Flour: 500 g",
          options: undefined,
          replyTo: { rootId: post.externalId, parentId: post.externalId }
        }
      )
      const handle = yield* publisher.prepare(comment)
      fake.script("POST", "/api/comment", { status: 200, dropAnswer: true })
      assert.isTrue(outcomeUnknown(yield* Effect.exit(publisher.publish(comment, handle))))
      const recovery = yield* publisher.recover!(comment, handle)
      assert.strictEqual(recovery._tag, "Published")
      assert.strictEqual(
        recovery._tag === "Published" ? recovery.published.externalId : "",
        `t1_${fake.comments.at(-1)!.id}`
      )
    })
  )

  it.effect("take-down deletes the post and its comment with POST /api/del; a second take-down is harmless", () =>
    Effect.gen(function* () {
      const { publisher, credentials, account } = yield* connected()
      const post = publishedOf(yield* publisher.publish(request(account, credentials)))
      const comment = publishedOf(
        yield* publisher.publish(
          request(
            account,
            credentials,
            {},
            { content: "More", options: undefined, replyTo: { rootId: post.externalId, parentId: post.externalId } }
          )
        )
      )
      for (const [externalId, kind] of [
        [post.externalId, "post"],
        [comment.externalId, "comment"]
      ] as const)
        yield* publisher.unpublish!({ account, credentials, externalId, kind })
      assert.isTrue(fake.posts.at(-1)!.deleted)
      assert.isTrue(fake.comments.at(-1)!.deleted)
      assert.deepStrictEqual(
        fake
          .calls("POST", "/api/del")
          .slice(-2)
          .map((r) => r.body),
        [{ id: post.externalId }, { id: comment.externalId }]
      )
      yield* publisher.unpublish!({ account, credentials, externalId: post.externalId, kind: "post" })
    })
  )

  it.effect(
    "figures: score, comments and upvote ratio from GET /api/info, several posts in one call; a deleted post is not measured",
    () =>
      Effect.gen(function* () {
        const { publisher, credentials, account } = yield* connected()
        const a = publishedOf(yield* publisher.publish(request(account, credentials, { title: "A" })))
        const b = publishedOf(yield* publisher.publish(request(account, credentials, { title: "B" })))
        Object.assign(fake.posts.at(-2)!, { score: 42, numComments: 7, upvoteRatio: 0.93 })
        fake.posts.at(-1)!.deleted = true
        const answer = yield* publisher.metrics!.read({
          account,
          credentials,
          posts: [a, b].map((p) => ({ externalId: p.externalId, publishedAt: 0 }))
        })
        assert.strictEqual(answer._tag, "Read")
        const figures = answer._tag === "Read" ? answer.figures : new Map()
        assert.deepStrictEqual(figures.get(a.externalId), { score: 42, num_comments: 7, upvote_ratio: 0.93 })
        assert.isFalse(figures.has(b.externalId))
        assert.strictEqual(fake.calls("GET", "/api/info").at(-1)!.query.id, `${a.externalId},${b.externalId}`)
      })
  )

  it.effect(
    "dry-run advice reads the subreddit's rules with the account's credentials and says what Reddit would refuse",
    () =>
      Effect.gen(function* () {
        const { publisher, credentials, account } = yield* connected()
        const advice = yield* publisher.advise!(account, 0, {
          media: [],
          options: { reddit: { subreddit: "AskHerald" } },
          text: { content: "Proofing times?", thread: [], firstComment: null },
          credentials: Effect.succeed(credentials)
        })
        assert.deepStrictEqual(advice, [
          `Goes to r/AskHerald as a text post titled "Proofing times?" (the text's first line; set reddit.title to choose it).`,
          "Reddit would refuse it in r/AskHerald: r/AskHerald requires a flair: set reddit.flairId to one of 5f1b8c2a-q (Question), 5f1b8c2a-d (Discussion). r/AskHerald requires a text body: add text after the title."
        ])
        const fine = yield* publisher.advise!(account, 0, {
          media: [],
          options: { reddit: { subreddit: "HeraldTest", title: "Hello" } },
          text: { content: "Body", thread: [], firstComment: null },
          credentials: Effect.succeed(credentials)
        })
        assert.deepStrictEqual(fine, [`Goes to r/HeraldTest as a text post titled "Hello".`])
      })
  )
})

describe("Reddit: an accepted image post", () => {
  it.effect("is looked for again, its handle kept, when the look is throttled: never submitted twice", () =>
    Effect.gen(function* () {
      const { publisher, credentials, account, blobs } = yield* connected()
      const image = yield* upload(blobs, "image/jpeg", 3000)
      const req = request(account, credentials, { title: "Crumb" }, { media: [image.media] })
      fake.script("GET", "/user/alice_bakes/submitted", {
        status: 429,
        body: { message: "Too Many Requests", error: 429 },
        headers: { "x-ratelimit-remaining": "0", "x-ratelimit-reset": "40" }
      })
      const first = processingOf(yield* publisher.publish(req, yield* publisher.prepare(req)))
      assert.strictEqual(first.checkAfterMs, 40_000)
      assert.deepInclude(JSON.parse(first.handle), { stage: "accepted", looks: 1 })
      yield* TestClock.adjust(40_000)
      const made = fake.posts.at(-1)!
      assert.deepStrictEqual(yield* publisher.recover!(req, first.handle), {
        _tag: "Published",
        published: {
          externalId: `t3_${made.id}`,
          url: `https://www.reddit.com/r/HeraldTest/comments/${made.id}/crumb/`
        }
      })
      assert.strictEqual(publishedOf(yield* publisher.publish(req, first.handle)).externalId, `t3_${made.id}`)
      assert.lengthOf(
        fake.calls("POST", "/api/submit").filter((r) => (r.body as Record<string, string>).title === "Crumb"),
        1
      )
    })
  )
})

describe("Reddit figures within the account's window", () => {
  it.effect("a 429 on GET /api/info waits X-Ratelimit-Reset, and publishing (same window) waits too", () =>
    Effect.gen(function* () {
      const { publisher, credentials, account } = yield* connected()
      const post = publishedOf(yield* publisher.publish(request(account, credentials, { title: "Window" })))
      fake.script("GET", "/api/info", {
        status: 429,
        body: { message: "Too Many Requests", error: 429 },
        headers: { "x-ratelimit-used": "600", "x-ratelimit-remaining": "0", "x-ratelimit-reset": "90" }
      })
      const read = { account, credentials, posts: [{ externalId: post.externalId, publishedAt: 0 }] }
      const limited = yield* Effect.flip(publisher.metrics!.read(read))
      assert.deepInclude(viewOf(limited), { code: "rate_limited", retryAfterMs: 90_000 })
      const held = yield* Effect.flip(publisher.publish(request(account, credentials, { title: "Later" })))
      assert.deepInclude(viewOf(held), { code: "rate_limited", retryAfterMs: 90_000 })
      yield* TestClock.adjust(90_000)
      assert.strictEqual((yield* publisher.metrics!.read(read))._tag, "Read")
    })
  )
})
