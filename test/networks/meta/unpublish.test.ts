import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import type { PublishOutcome, PublishRequest } from "../../../application/ports/Publishers.ts"
import { viewOf } from "../shared/reason.ts"
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
const deletes = () => fake.requests.filter((r) => r.method === "DELETE")

const untilPublished = (
  publisher: { readonly publish: (r: PublishRequest, h?: string) => Effect.Effect<PublishOutcome, any> },
  request: PublishRequest
) =>
  Effect.gen(function* () {
    let outcome = yield* publisher.publish(request)
    for (let i = 0; i < 20 && outcome._tag === "Processing"; i++)
      outcome = yield* publisher.publish(request, outcome.handle)
    return publishedOf(outcome)
  })

describe("Meta take-down against the fake Graph API (DELETE /{id})", () => {
  it.effect("Facebook: the Page's post and its comment with the Page token; already gone is done; #32 waits", () =>
    Effect.gen(function* () {
      yield* setNow(fake, T0 + ++day * 86_400_000)
      fake.state.facebookUser = "10150000000000001"
      fake.state.grantedFacebookScopes = null
      const network = facebookOn(fake, files)
      const bakery = (yield* connect(network)).find((c) => c.profile.externalId === "101000000000001")!
      const account = accountOf("facebook", bakery)
      const credentials = bakery.credentials!
      const post = publishedOf(yield* network.publisher.publish(requestFor(account, credentials, { content: "Bread" })))
      const comment = publishedOf(
        yield* network.publisher.publish(
          requestFor(account, credentials, {
            content: "Menu: https://bakery.example",
            replyTo: { rootId: post.externalId, parentId: post.externalId }
          })
        )
      )
      const removal = (externalId: string, kind: "post" | "comment") =>
        network.publisher.unpublish!({ account, credentials, externalId, kind })
      const before = deletes().length
      yield* removal(comment.externalId, "comment")
      yield* removal(post.externalId, "post")
      assert.deepStrictEqual(
        deletes()
          .slice(before)
          .map((r) => r.path),
        [`/v26.0/${comment.externalId}`, `/v26.0/${post.externalId}`]
      )
      assert.strictEqual(deletes().at(-1)!.headers.authorization, `Bearer ${credentials.accessToken}`)
      assert.isFalse(fake.posts.some((p) => p.id === post.externalId || p.id === comment.externalId))
      // Again: Meta's "does not exist" (100/33) is the post being gone.
      yield* removal(post.externalId, "post")
      const other = publishedOf(
        yield* network.publisher.publish(requestFor(account, credentials, { content: "Rolls" }))
      )
      fake.script("DELETE", `/v26.0/${other.externalId}`, {
        status: 400,
        body: {
          error: { message: "(#32) Page request limit reached", type: "OAuthException", code: 32, fbtrace_id: "x" }
        }
      })
      assert.deepInclude(viewOf(yield* Effect.flip(removal(other.externalId, "post"))), { reason: "RateLimited" })
      assert.isTrue(fake.posts.some((p) => p.id === other.externalId))
    })
  )

  it.effect("Threads: the post and its reply, each a media object; an unknown token needs reconnection", () =>
    Effect.gen(function* () {
      yield* setNow(fake, T0 + ++day * 86_400_000)
      fake.state.containerPolls = 0
      const network = threadsOn(fake, files)
      const [connection] = yield* connect(network)
      const account = accountOf("threads", connection!)
      const credentials = connection!.credentials!
      const root = yield* untilPublished(
        network.publisher,
        requestFor(account, credentials, { content: "Threads 1/2" })
      )
      const reply = yield* untilPublished(
        network.publisher,
        requestFor(account, credentials, {
          content: "Threads 2/2",
          replyTo: { rootId: root.externalId, parentId: root.externalId }
        })
      )
      const removal = (externalId: string, kind: "post" | "reply") =>
        network.publisher.unpublish!({ account, credentials, externalId, kind })
      yield* removal(reply.externalId, "reply")
      yield* removal(root.externalId, "post")
      assert.isFalse(fake.posts.some((p) => p.id === root.externalId || p.id === reply.externalId))
      const bad = yield* Effect.flip(
        network.publisher.unpublish!({
          account,
          credentials: { ...credentials, accessToken: "not-a-token" },
          externalId: root.externalId,
          kind: "post"
        })
      )
      // Meta's 190 for a token it does not know: the grant is gone (Herald marks the account for reconnection).
      assert.strictEqual(bad.code, "account_needs_reconnection")
    })
  )

  it.effect("Instagram's publisher has no unpublish: a take-down is unpublish_unsupported before any call", () =>
    Effect.sync(() => {
      assert.isUndefined(instagramOn(fake, files).publisher.unpublish)
    })
  )
})
