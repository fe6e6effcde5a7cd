import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { normalise } from "../../../domain/metrics.ts"
import type { Platform } from "../../../domain/platforms.ts"
import { type FakeGraph, startFakeGraph } from "./fakeGraph.ts"
import {
  accountOf,
  connect,
  facebookOn,
  type Files,
  instagramOn,
  publishedOf,
  requestFor,
  setNow,
  startFiles,
  T0,
  threadsOn
} from "./support.ts"

let fake: FakeGraph
let files: Files
beforeAll(async () => {
  fake = await startFakeGraph()
  files = await startFiles(fake)
})
afterAll(async () => {
  await files.close()
  await fake.close()
})

let day = 0
const on = (platform: Platform, withheld: Array<string> = []) =>
  Effect.gen(function* () {
    yield* setNow(fake, T0 + ++day * 86_400_000)
    fake.state.withheldScopes = withheld
    const network =
      platform === "facebook"
        ? facebookOn(fake, files)
        : platform === "threads"
          ? threadsOn(fake, files)
          : instagramOn(fake, files)
    const [connection] = yield* connect(network)
    fake.state.withheldScopes = []
    return { network, account: accountOf(platform, connection!), credentials: connection!.credentials! }
  })

/** A post of the account as Meta keeps it (how it got there is the publisher's tests' business). */
const existing = (platform: "instagram" | "threads", owner: string) => {
  const id = `${platform === "threads" ? 18 : 17}${String(++day).padStart(15, "0")}`
  fake.posts.push({
    id,
    app: platform,
    owner,
    kind: platform === "threads" ? "thread" : "media",
    text: "figures",
    createdAt: T0,
    link: null,
    attached: [],
    container: null,
    replyTo: null,
    mediaType: platform === "threads" ? "TEXT_POST" : "IMAGE",
    children: [],
    cover: null
  } as unknown as (typeof fake.posts)[number])
  return id
}

describe("Meta metrics against the fake Graph API", () => {
  it.effect("Threads: /{media-id}/insights views, likes, replies, reposts, quotes, shares; saves null", () =>
    Effect.gen(function* () {
      const { network, account, credentials } = yield* on("threads")
      const id = existing("threads", account.externalId)
      fake.setInsights(id, { views: 410, likes: 30, replies: 5, reposts: 2, quotes: 1, shares: 3 })
      const answer = yield* network.publisher.metrics!.read({
        account,
        credentials,
        posts: [{ externalId: id, publishedAt: T0 }]
      })
      assert(answer._tag === "Read")
      const common = normalise("threads", answer.figures.get(id)!)
      assert.strictEqual(common.views.value, 410)
      assert.strictEqual(common.reposts.value, 3)
      assert.isNull(common.saves.value)
      assert.strictEqual(
        fake.calls("GET", new RegExp(`/${id}/insights$`)).at(-1)!.query.metric,
        "views,likes,replies,reposts,quotes,shares"
      )
    })
  )

  it.effect("Threads without threads_manage_insights: NotOffered naming the permission", () =>
    Effect.gen(function* () {
      const { network, account, credentials } = yield* on("threads", ["threads_manage_insights"])
      const id = existing("threads", account.externalId)
      const answer = yield* network.publisher.metrics!.read({
        account,
        credentials,
        posts: [{ externalId: id, publishedAt: T0 }]
      })
      assert(answer._tag === "NotOffered")
      assert.include(answer.reason, "threads_manage_insights")
    })
  )

  it.effect("Instagram: views, likes, comments, shares, saved; too few viewers gives no figures, not a failure", () =>
    Effect.gen(function* () {
      const { network, account, credentials } = yield* on("instagram")
      const owner = credentials.extra?.login === "facebook" ? account.externalId : account.externalId
      const a = existing("instagram", owner)
      const b = existing("instagram", owner)
      fake.setInsights(a, { views: 1000, likes: 70, comments: 8, shares: 6, saved: 12, reach: 800 })
      fake.setInsights(b, "few-viewers")
      const answer = yield* network.publisher.metrics!.read({
        account,
        credentials,
        posts: [a, b].map((externalId) => ({ externalId, publishedAt: T0 }))
      })
      assert(answer._tag === "Read")
      const common = normalise("instagram", answer.figures.get(a)!)
      assert.strictEqual(common.views.value, 1000)
      assert.strictEqual(common.saves.value, 12)
      assert.isNull(common.clicks.value)
      assert.isFalse(answer.figures.has(b))
    })
  )

  it.effect(
    "Facebook: one read per Page post, insights, shares and comments by field expansion; no read_insights: NotOffered",
    () =>
      Effect.gen(function* () {
        const { network, account, credentials } = yield* on("facebook")
        const post = publishedOf(
          yield* network.publisher.publish(requestFor(account, credentials, { content: "Fresh bread today" }))
        )
        fake.setInsights(post.externalId, {
          post_impressions: 222,
          post_clicks: 14,
          post_reactions_like_total: 19,
          shares: 4,
          comments: 6
        })
        const answer = yield* network.publisher.metrics!.read({
          account,
          credentials,
          posts: [{ externalId: post.externalId, publishedAt: T0 }]
        })
        assert(answer._tag === "Read")
        const common = normalise("facebook", answer.figures.get(post.externalId)!)
        assert.strictEqual(common.views.value, 222)
        assert.strictEqual(common.likes.value, 19)
        assert.strictEqual(common.replies.value, 6)
        assert.strictEqual(common.reposts.value, 4)
        assert.strictEqual(common.clicks.value, 14)
        const narrow = yield* on("facebook", ["read_insights"])
        const refused = yield* narrow.network.publisher.metrics!.read({
          account: narrow.account,
          credentials: narrow.credentials,
          posts: [{ externalId: post.externalId, publishedAt: T0 }]
        })
        assert(refused._tag === "NotOffered")
        assert.include(refused.reason, "read_insights")
      })
  )
})
