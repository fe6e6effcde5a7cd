import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import type { UnpublishRequest } from "../../../application/ports/Publishers.ts"
import { viewOf } from "../shared/reason.ts"
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
  return {
    credentials: member.credentials!,
    publisher: network.publisher,
    member: accountOf(member),
    page: accountOf(page)
  }
})

describe("LinkedIn take-down against the fake LinkedIn (DELETE /rest/posts/{urn})", () => {
  it.effect("removes the page's post (its comment goes with it); already gone is done", () =>
    Effect.gen(function* () {
      const { publisher, credentials, page } = yield* connected
      const post = publishedOf(yield* publisher.publish(request(page, credentials, { content: "Page post" })))
      const comment = publishedOf(
        yield* publisher.publish(
          request(page, credentials, {
            content: "A link below",
            replyTo: { rootId: post.externalId, parentId: post.externalId }
          })
        )
      )
      const removal = (externalId: string, kind: UnpublishRequest["kind"]) =>
        publisher.unpublish!({ account: page, credentials, externalId, kind })
      const before = fake.calls("DELETE", /^\/rest\/posts\//).length
      yield* removal(comment.externalId, "comment")
      yield* removal(post.externalId, "post")
      const calls = fake.calls("DELETE", /^\/rest\/posts\//).slice(before)
      assert.deepStrictEqual(
        calls.map((c) => c.path),
        [`/rest/posts/${encodeURIComponent(post.externalId)}`]
      )
      assert.strictEqual(calls[0]!.headers.authorization, `Bearer ${credentials.accessToken}`)
      assert.strictEqual(calls[0]!.headers["x-restli-method"], "DELETE")
      assert.isFalse(fake.posts.some((p) => p.urn === post.externalId))
      assert.isFalse(fake.comments.some((c) => c.post === post.externalId))
      // Again (an answer lost): LinkedIn answers 404, the post is gone.
      yield* removal(post.externalId, "post")
    })
  )

  it.effect("403 is a refusal; 401 is unauthorized; 429 is rate_limited (until midnight UTC); the post stays", () =>
    Effect.gen(function* () {
      const { publisher, credentials, member } = yield* connected
      const post = publishedOf(yield* publisher.publish(request(member, credentials, { content: "Member post" })))
      const removal = () =>
        publisher.unpublish!({ account: member, credentials, externalId: post.externalId, kind: "post" })
      fake.script("DELETE", /^\/rest\/posts\//, {
        status: 403,
        body: { status: 403, message: "Not enough permissions to access: partnerApiPostsExternal.DELETE" }
      })
      assert.deepInclude(viewOf(yield* Effect.flip(removal())), { code: "upstream_rejected", reason: "Refused" })
      fake.expireAccess("m-alice")
      assert.deepInclude(viewOf(yield* Effect.flip(removal())), { reason: "Unauthorized" })
      // The day's limit: LinkedIn's 429 closes the account's calls until midnight UTC.
      fake.script("DELETE", /^\/rest\/posts\//, {
        status: 429,
        body: { status: 429, message: "Resource level throttle DAY limit for calls to this resource is reached." }
      })
      assert.deepInclude(viewOf(yield* Effect.flip(removal())), { code: "rate_limited", reason: "RateLimited" })
      assert.isTrue(fake.posts.some((p) => p.urn === post.externalId))
    })
  )
})
