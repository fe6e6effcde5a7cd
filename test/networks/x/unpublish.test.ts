import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import type { Publisher, UnpublishRequest } from "../../../application/ports/Publishers.ts"
import type { NetworkCredentials } from "../../../application/ports/Connectors.ts"
import { type FakeX, startFakeX } from "./fakeX.ts"
import { connect, publishedOf, request, setNow, T0, xOn } from "./support.ts"

let fake: FakeX
beforeAll(async () => void (fake = await startFakeX()))
afterAll(() => fake.close())

let day = 0
const connected = Effect.gen(function* () {
  yield* setNow(fake, T0 + ++day * 86_400_000)
  fake.state.limits = { tweets: 100, tweetsPerDay: 2400, other: 900, deletes: 50 }
  const { network } = yield* xOn(fake)
  const { credentials } = yield* connect(network)
  return { credentials: credentials!, publisher: network.publisher }
})

const removal = (
  publisher: Publisher,
  credentials: NetworkCredentials,
  externalId: string,
  kind: UnpublishRequest["kind"] = "post"
) => publisher.unpublish!({ account: request(credentials, { content: "" }).account, credentials, externalId, kind })

describe("X take-down against the fake X (DELETE /2/tweets/:id)", () => {
  it.effect("removes a post and its replies, one DELETE each with the bearer token; already gone is done", () =>
    Effect.gen(function* () {
      const { publisher, credentials } = yield* connected
      const root = publishedOf(yield* publisher.publish(request(credentials, { content: "Going away" })))
      const reply = publishedOf(
        yield* publisher.publish(
          request(credentials, {
            content: "Its reply",
            replyTo: { rootId: root.externalId, parentId: root.externalId }
          })
        )
      )
      const before = fake.calls("DELETE", /^\/2\/tweets\//).length
      yield* removal(publisher, credentials, reply.externalId, "reply")
      yield* removal(publisher, credentials, root.externalId)
      const calls = fake.calls("DELETE", /^\/2\/tweets\//).slice(before)
      assert.deepStrictEqual(
        calls.map((c) => c.path),
        [`/2/tweets/${reply.externalId}`, `/2/tweets/${root.externalId}`]
      )
      assert.strictEqual(calls[0]!.headers.authorization, `Bearer ${credentials.accessToken}`)
      assert.isFalse(fake.tweets.some((t) => t.id === root.externalId || t.id === reply.externalId))
      // A repeat after a lost answer: X answers 404, which is the post being gone.
      yield* removal(publisher, credentials, root.externalId)
    })
  )

  it.effect("401 is unauthorized (renew and retry); 429 waits for x-rate-limit-reset; another 403 is a refusal", () =>
    Effect.gen(function* () {
      const { publisher, credentials } = yield* connected
      const post = publishedOf(yield* publisher.publish(request(credentials, { content: "Stays a while" })))
      const now = fake.state.clock!
      fake.script("DELETE", /^\/2\/tweets\//, {
        status: 429,
        body: { title: "Too Many Requests", detail: "Too Many Requests", type: "about:blank", status: 429 },
        headers: {
          "x-rate-limit-limit": "50",
          "x-rate-limit-remaining": "0",
          "x-rate-limit-reset": String(Math.ceil(now / 1000) + 60)
        }
      })
      const limited = yield* Effect.flip(removal(publisher, credentials, post.externalId))
      assert.strictEqual(limited.reason._tag, "RateLimited")
      assert.strictEqual(limited.retryAfterMs, Math.ceil(now / 1000) * 1000 + 60_000 - now)
      yield* setNow(fake, now + 61_000)
      fake.script("DELETE", /^\/2\/tweets\//, {
        status: 403,
        body: {
          title: "Forbidden",
          type: "about:blank",
          status: 403,
          detail: "You are not allowed to delete this Tweet."
        }
      })
      const forbidden = yield* Effect.flip(removal(publisher, credentials, post.externalId))
      assert.deepStrictEqual([forbidden.code, forbidden.retryable], ["upstream_rejected", false])
      fake.expireAccess("1001")
      const expired = yield* Effect.flip(removal(publisher, credentials, post.externalId))
      assert.strictEqual(expired.reason._tag, "Unauthorized")
      assert.isTrue(fake.tweets.some((t) => t.id === post.externalId))
    })
  )
})
