import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { normalise } from "../../../domain/metrics.ts"
import { type FakeLinkedIn, startFakeLinkedIn } from "./fakeLinkedIn.ts"
import { accountOf, connect, linkedInOn, publishedOf, request, setNow, T0 } from "./support.ts"

let fake: FakeLinkedIn
beforeAll(async () => void (fake = await startFakeLinkedIn()))
afterAll(() => fake.close())

let day = 0
const connected = Effect.gen(function* () {
  yield* setNow(fake, T0 + ++day * 86_400_000)
  const { network } = yield* linkedInOn(fake)
  const [member, page] = yield* connect(network)
  return { network, credentials: member.credentials!, member: accountOf(member), page: accountOf(page) }
})

describe("LinkedIn metrics against the fake LinkedIn", () => {
  it.effect("a page's posts: one organizationalEntityShareStatistics call for the list, clicks included", () =>
    Effect.gen(function* () {
      const { network, credentials, page } = yield* connected
      const a = publishedOf(yield* network.publisher.publish(request(page, credentials, { content: "page a" })))
      const b = publishedOf(yield* network.publisher.publish(request(page, credentials, { content: "page b" })))
      fake.setFigures(a.externalId, {
        impressionCount: 500,
        likeCount: 20,
        commentCount: 4,
        shareCount: 3,
        clickCount: 11
      })
      const before = fake.calls("GET", "/rest/organizationalEntityShareStatistics").length
      const answer = yield* network.publisher.metrics!.read({
        account: page,
        credentials,
        posts: [a, b].map((p) => ({ externalId: p.externalId, publishedAt: T0 }))
      })
      const calls = fake.calls("GET", "/rest/organizationalEntityShareStatistics").slice(before)
      assert.strictEqual(calls.length, 1)
      assert.strictEqual(calls[0].headers["linkedin-version"], "202607")
      assert(answer._tag === "Read")
      const common = normalise("linkedin", answer.figures.get(a.externalId)!)
      assert.strictEqual(common.views.value, 500)
      assert.strictEqual(common.clicks.value, 11)
      assert.isNull(common.saves.value)
      assert.strictEqual(answer.figures.get(b.externalId)!.likeCount, 0)
    })
  )

  it.effect("a member without r_member_postAnalytics: NotOffered with LinkedIn's words", () =>
    Effect.gen(function* () {
      const { network, credentials, member } = yield* connected
      const a = publishedOf(yield* network.publisher.publish(request(member, credentials, { content: "member a" })))
      const answer = yield* network.publisher.metrics!.read({
        account: member,
        credentials,
        posts: [{ externalId: a.externalId, publishedAt: T0 }]
      })
      assert(answer._tag === "NotOffered")
      assert.include(answer.reason, "r_member_postAnalytics")
    })
  )

  it.effect("a member of an approved app: memberCreatorPostAnalytics per figure (IMPRESSION, REACTION...)", () =>
    Effect.gen(function* () {
      const { network, credentials, member } = yield* connected
      const a = publishedOf(yield* network.publisher.publish(request(member, credentials, { content: "member b" })))
      fake.grantScope(credentials.accessToken, "r_member_postAnalytics")
      fake.setFigures(a.externalId, { IMPRESSION: 80, REACTION: 9, COMMENT: 2, RESHARE: 1 })
      const before = fake.calls("GET", "/rest/memberCreatorPostAnalytics").length
      const answer = yield* network.publisher.metrics!.read({
        account: member,
        credentials,
        posts: [{ externalId: a.externalId, publishedAt: T0 }]
      })
      const calls = fake.calls("GET", "/rest/memberCreatorPostAnalytics").slice(before)
      assert.deepStrictEqual(
        calls.map((c) => c.query.queryType),
        ["IMPRESSION", "REACTION", "COMMENT", "RESHARE"]
      )
      assert.strictEqual(calls[0].query.entity, `(share:${a.externalId})`)
      assert(answer._tag === "Read")
      const common = normalise("linkedin", answer.figures.get(a.externalId)!)
      assert.strictEqual(common.views.value, 80)
      assert.strictEqual(common.likes.value, 9)
      assert.strictEqual(common.reposts.value, 1)
      assert.isNull(common.clicks.value)
    })
  )
})
