import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { viewOf } from "../shared/reason.ts"
import { type FakeYouTube, startFakeYouTube } from "./fakeYouTube.ts"
import { accountOf, connect, publishedOf, publishThrough, request, setNow, T0, upload, youTubeOn } from "./support.ts"

let fake: FakeYouTube
beforeAll(async () => void (fake = await startFakeYouTube()))
afterAll(() => fake.close())

let day = 0
const connected = Effect.gen(function* () {
  yield* setNow(fake, T0 + ++day * 86_400_000)
  fake.state.processingPolls = 1
  const { network, blobs } = yield* youTubeOn(fake)
  const connection = yield* connect(fake, network, "g-alice")
  return {
    network,
    blobs,
    publisher: network.publisher,
    credentials: connection.credentials!,
    account: accountOf(connection)
  }
})

const deletes = () => fake.requests.filter((r) => r.method === "DELETE")

describe("YouTube take-down against the fake YouTube (videos.delete)", () => {
  it.effect("removes the video (its comments with it, no call of their own); already gone is done; 401 and quota", () =>
    Effect.gen(function* () {
      const { network, publisher, credentials, account, blobs } = yield* connected
      const req = request(account, credentials, { media: [(yield* upload(blobs, "video", "video/mp4", 2000)).media] })
      const outcomes = yield* publishThrough(network, req, yield* publisher.prepare!(req))
      const video = publishedOf(outcomes.at(-1)!)
      const comment = publishedOf(
        yield* publisher.publish(
          request(account, credentials, {
            content: "Links below",
            replyTo: { rootId: video.externalId, parentId: video.externalId }
          })
        )
      )
      const removal = (externalId: string, kind: "post" | "comment") =>
        publisher.unpublish!({ account, credentials, externalId, kind })
      const before = deletes().length
      yield* removal(comment.externalId, "comment")
      yield* removal(video.externalId, "post")
      const sent = deletes().slice(before)
      assert.deepStrictEqual(
        sent.map((r) => [r.path, r.query]),
        [["/youtube/v3/videos", { id: video.externalId }]]
      )
      assert.strictEqual(sent[0]!.headers.authorization, `Bearer ${credentials.accessToken}`)
      assert.isFalse(fake.comments.some((c) => c.videoId === video.externalId))
      // Again, after a lost answer: YouTube's 404 videoNotFound is the video being gone.
      yield* removal(video.externalId, "post")

      fake.script("DELETE", "/youtube/v3/videos", {
        status: 403,
        body: {
          error: {
            code: 403,
            message: "The request cannot be completed because you have exceeded your quota.",
            errors: [{ message: "quota", domain: "youtube.quota", reason: "quotaExceeded" }]
          }
        }
      })
      assert.deepInclude(viewOf(yield* Effect.flip(removal("another", "post"))), { reason: "RateLimited" })
    })
  )

  it.effect("an expired access token is unauthorized", () =>
    Effect.gen(function* () {
      const { publisher, credentials, account } = yield* connected
      fake.expireAccess("g-alice")
      const error = yield* Effect.flip(
        publisher.unpublish!({ account, credentials, externalId: "v-any", kind: "post" })
      )
      assert.deepInclude(viewOf(error), { code: "account_needs_reconnection", reason: "Unauthorized" })
    })
  )
})
