import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { viewOf } from "../shared/reason.ts"
import { type FakeReddit, startFakeReddit } from "./fakeReddit.ts"
import { connectedOn, publishedOf, request, upload } from "./support.ts"

let fake: FakeReddit
beforeAll(async () => void (fake = await startFakeReddit()))
afterAll(() => fake.close())

let day = 0
const connected = (as = "alice") => connectedOn(fake, ++day, as)

const lastSubmit = () => fake.calls("POST", "/api/submit").at(-1)!.body as Record<string, string>

describe("Reddit publisher against the fake Reddit", () => {
  it.effect("a text post: the first line is the title, the rest the body, after reading the subreddit's rules", () =>
    Effect.gen(function* () {
      const { publisher, credentials, account } = yield* connected()
      const req = request(account, credentials)
      const { externalId, url } = publishedOf(yield* publisher.publish(req, yield* publisher.prepare(req)))
      const post = fake.posts.at(-1)!
      assert.strictEqual(externalId, `t3_${post.id}`)
      assert.strictEqual(url, `https://www.reddit.com/r/HeraldTest/comments/${post.id}/sourdough_day_three/`)
      assert.deepStrictEqual(lastSubmit(), {
        api_type: "json",
        resubmit: "true",
        sr: "HeraldTest",
        kind: "self",
        title: "Sourdough, day three",
        text: "The starter finally doubled overnight."
      })
      const submit = fake.calls("POST", "/api/submit").at(-1)!
      assert.strictEqual(submit.headers["user-agent"], fake.userAgent)
      assert.strictEqual(submit.headers.authorization, `bearer ${credentials.accessToken}`)
      assert.lengthOf(fake.calls("GET", "/r/HeraldTest/about"), day)
      assert.isAtLeast(fake.calls("GET", "/api/v1/HeraldTest/post_requirements").length, 1)
    })
  )

  it.effect(
    "reddit.title is the title and the whole text the body; a flair is sent and checked against the subreddit's",
    () =>
      Effect.gen(function* () {
        const { publisher, credentials, account } = yield* connected()
        const req = request(account, credentials, {
          subreddit: "r/AskHerald",
          title: "How long do you proof?",
          flairId: "5f1b8c2a-q"
        })
        publishedOf(yield* publisher.publish(req))
        assert.deepInclude(lastSubmit(), {
          sr: "AskHerald",
          title: "How long do you proof?",
          text: "Sourdough, day three\nThe starter finally doubled overnight.",
          flair_id: "5f1b8c2a-q"
        })
        const wrong = yield* Effect.flip(
          publisher.publish(request(account, credentials, { subreddit: "AskHerald", flairId: "nope" }))
        )
        assert.strictEqual(wrong.code, "upstream_rejected")
        assert.include(
          wrong.message,
          "r/AskHerald has no flair nope: its flairs are 5f1b8c2a-q (Question), 5f1b8c2a-d (Discussion)"
        )
      })
  )

  it.effect("a link post (reddit.url) and the subreddit's domain blacklist", () =>
    Effect.gen(function* () {
      const { publisher, credentials, account } = yield* connected()
      publishedOf(
        yield* publisher.publish(
          request(
            account,
            credentials,
            { subreddit: "HeraldLinks", url: "https://bread.example/starter" },
            { content: "A starter guide" }
          )
        )
      )
      assert.deepInclude(lastSubmit(), {
        sr: "HeraldLinks",
        kind: "link",
        title: "A starter guide",
        url: "https://bread.example/starter"
      })
      assert.notProperty(lastSubmit(), "text")
      const before = fake.calls("POST", "/api/submit").length
      const spam = yield* Effect.flip(
        publisher.publish(request(account, credentials, { subreddit: "HeraldLinks", url: "https://spam.example/x" }))
      )
      assert.include(spam.message, "r/HeraldLinks refuses links to spam.example.")
      assert.lengthOf(fake.calls("POST", "/api/submit"), before)
    })
  )

  it.effect(
    "an image post: an upload lease, the file to its action with every field, the asset URL submitted, the post found in the account's posts",
    () =>
      Effect.gen(function* () {
        const { publisher, credentials, account, blobs } = yield* connected()
        const image = yield* upload(blobs, "image/png", 5000)
        const req = request(account, credentials, {}, { content: "Crumb shot", media: [image.media] })
        const { externalId, url } = publishedOf(yield* publisher.publish(req, yield* publisher.prepare(req)))
        const lease = fake.calls("POST", "/api/media/asset.json").at(-1)!.body as Record<string, string>
        assert.deepStrictEqual(lease, { filepath: image.media.filename, mimetype: "image/png" })
        const asset = [...fake.assets.values()].at(-1)!
        assert.strictEqual(asset.sha256, image.sha256)
        assert.deepInclude(lastSubmit(), {
          kind: "image",
          title: "Crumb shot",
          url: `https://reddit-uploaded-media.s3-accelerate.amazonaws.com/${asset.key}`
        })
        const post = fake.posts.at(-1)!
        assert.strictEqual(externalId, `t3_${post.id}`)
        assert.include(url!, `/r/HeraldTest/comments/${post.id}/`)
        assert.strictEqual(fake.calls("GET", "/user/alice_bakes/submitted").at(-1)!.query.sort, "new")
      })
  )

  it.effect("a first comment is a comment on the post (POST /api/comment)", () =>
    Effect.gen(function* () {
      const { publisher, credentials, account } = yield* connected()
      const post = publishedOf(yield* publisher.publish(request(account, credentials)))
      const comment = publishedOf(
        yield* publisher.publish(
          request(
            account,
            credentials,
            {},
            {
              content: "Recipe in the comments: 500 g flour.",
              options: undefined,
              replyTo: { rootId: post.externalId, parentId: post.externalId }
            }
          )
        )
      )
      const made = fake.comments.at(-1)!
      assert.strictEqual(comment.externalId, `t1_${made.id}`)
      assert.deepStrictEqual(fake.calls("POST", "/api/comment").at(-1)!.body, {
        api_type: "json",
        thing_id: post.externalId,
        text: "Recipe in the comments: 500 g flour."
      })
    })
  )

  it.effect(
    "refused before sending by the subreddit's rules: a link to a text-only subreddit, a missing required flair, a restricted subreddit",
    () =>
      Effect.gen(function* () {
        const { publisher, credentials, account } = yield* connected()
        const before = fake.calls("POST", "/api/submit").length
        const link = yield* Effect.flip(
          publisher.publish(
            request(account, credentials, {
              subreddit: "AskHerald",
              url: "https://bread.example",
              flairId: "5f1b8c2a-q"
            })
          )
        )
        assert.deepInclude(viewOf(link), { code: "upstream_rejected", reason: "Refused", retryable: false })
        assert.include(link.message, "r/AskHerald takes text posts only (submission_type self)")
        const flair = yield* Effect.flip(publisher.publish(request(account, credentials, { subreddit: "AskHerald" })))
        assert.include(
          flair.message,
          "r/AskHerald requires a flair: set reddit.flairId to one of 5f1b8c2a-q (Question), 5f1b8c2a-d (Discussion)."
        )
        const missing = yield* Effect.flip(publisher.publish(request(account, credentials, { subreddit: "NoSuchSub" })))
        assert.include(missing.message, "Reddit has no subreddit r/NoSuchSub")
        assert.lengthOf(fake.calls("POST", "/api/submit"), before)
        // alice is an approved user of the restricted one.
        publishedOf(yield* publisher.publish(request(account, credentials, { subreddit: "HeraldNews" })))
        const bob = yield* connected("bob")
        const restricted = yield* Effect.flip(
          bob.publisher.publish(request(bob.account, bob.credentials, { subreddit: "HeraldNews" }))
        )
        assert.include(restricted.message, "r/HeraldNews is restricted: only its approved users may post")
      })
  )

  it.effect(
    "Reddit's refusals inside a 200 are the target's error with Reddit's words: NO_LINKS, SUBREDDIT_NOEXIST",
    () =>
      Effect.gen(function* () {
        const { publisher, credentials, account } = yield* connected()
        fake.script("POST", "/api/submit", {
          status: 200,
          body: { json: { errors: [["NO_LINKS", "that subreddit only allows text posts", "sr"]] } }
        })
        const refused = yield* Effect.flip(publisher.publish(request(account, credentials)))
        assert.deepInclude(viewOf(refused), {
          code: "upstream_rejected",
          reason: "Refused",
          message: "Reddit refused the post: that subreddit only allows text posts (NO_LINKS, sr)"
        })
        assert.strictEqual(refused.reason._tag === "Refused" ? refused.reason.networkCode : null, "NO_LINKS")
        fake.script("POST", "/api/submit", {
          status: 200,
          body: { json: { errors: [["SUBREDDIT_NOEXIST", "that subreddit doesn't exist", "sr"]] } }
        })
        const gone = yield* Effect.flip(publisher.publish(request(account, credentials)))
        assert.include(gone.message, "that subreddit doesn't exist (SUBREDDIT_NOEXIST, sr)")
      })
  )

  it.effect("RATELIMIT inside a 200 is rate_limited for the minutes Reddit names", () =>
    Effect.gen(function* () {
      const { publisher, credentials, account } = yield* connected()
      fake.state.submitsBeforeRatelimit = 0
      const limited = yield* Effect.flip(publisher.publish(request(account, credentials))).pipe(
        Effect.ensuring(Effect.sync(() => void (fake.state.submitsBeforeRatelimit = 100)))
      )
      assert.deepInclude(viewOf(limited), {
        code: "rate_limited",
        reason: "RateLimited",
        retryable: true,
        retryAfterMs: 5 * 60_000,
        message: "Reddit refused the post: you are doing that too much. try again in 5 minutes. (RATELIMIT, ratelimit)"
      })
    })
  )
})

describe("Reddit's subreddits as the account's boards", () => {
  it.effect("the subreddits the account moderates, is approved in, or subscribes to, each once, every page read", () =>
    Effect.gen(function* () {
      const { publisher, credentials, account } = yield* connected()
      fake.state.minePageSize = 2
      const boards = yield* publisher.boards!(account, credentials).pipe(
        Effect.ensuring(Effect.sync(() => void (fake.state.minePageSize = 100)))
      )
      assert.deepStrictEqual(
        boards.map((b) => [b.id, b.name, b.privacy]),
        [
          ["HeraldLinks", "r/HeraldLinks", "public"],
          ["HeraldNews", "r/HeraldNews", "restricted"],
          ["HeraldTest", "r/HeraldTest", "public"],
          ["AskHerald", "r/AskHerald", "public"]
        ]
      )
      assert.strictEqual(boards[0]!.description, "HeraldLinks, the subreddit")
      assert.deepStrictEqual(
        fake
          .calls("GET", "/subreddits/mine/subscriber")
          .slice(-2)
          .map((r) => r.query.after ?? null),
        [null, "t5_page2"]
      )
    })
  )
})
