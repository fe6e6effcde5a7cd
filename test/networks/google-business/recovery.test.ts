import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import * as HmacFileLinks from "../../../adapters/crypto/HmacFileLinks.ts"
import { processingOf, type ServedBlobs, serveBlobs } from "../shared/harness.ts"
import { outcomeUnknown } from "../shared/reason.ts"
import { type FakeGoogleBusiness, startFakeGoogleBusiness } from "./fakeGoogleBusiness.ts"
import { connectParis, POSTS, publishedOf, request } from "./support.ts"

let fake: FakeGoogleBusiness
let served: ServedBlobs
beforeAll(async () => {
  fake = await startFakeGoogleBusiness()
  served = await serveBlobs(HmacFileLinks.make("test"))
})
afterAll(async () => {
  await fake.close()
  await served.close()
})

const connected = () => connectParis(fake, served.blobs)

describe("Google Business Profile after a crash, and take-down", () => {
  it.effect(
    "a create whose answer was lost: recovery finds the post among the location's recent ones; none made means not published",
    () =>
      Effect.gen(function* () {
        const { publisher, credentials, account } = yield* connected()
        const req = request(account, credentials, { content: "Sourdough is back  on Saturdays" })
        const handle = yield* publisher.prepare(req)
        fake.script("POST", POSTS, { status: 200, dropAnswer: true })
        const lost = yield* Effect.exit(publisher.publish(req, handle))
        assert.isTrue(outcomeUnknown(lost))
        const made = [...fake.posts.values()].at(-1)!
        const recovered = yield* publisher.recover!(req, handle)
        assert.deepStrictEqual(recovered, {
          _tag: "Published",
          published: {
            externalId: made.name,
            url: `https://local.google.com/place?id=9001&use=posts&lpsid=${made.name.split("/").pop()}`
          }
        })
        assert.strictEqual(fake.calls("GET", POSTS).at(-1)!.query.pageSize, "100")
        const other = request(account, credentials, { content: "Never sent" })
        assert.deepStrictEqual(yield* publisher.recover!(other, yield* publisher.prepare(other)), {
          _tag: "NotPublished"
        })
        assert.deepStrictEqual(yield* publisher.recover!(other, null), { _tag: "Unknown" })
        // An attempt Google was reviewing made its post: recovery goes on asking about it, never sends again.
        fake.state.reviewReads = 2
        const reviewing = processingOf(
          yield* publisher.publish(request(account, credentials, { content: "In review" }))
        )
        const lists = fake.calls("GET", POSTS).length
        assert.deepStrictEqual(yield* publisher.recover!(request(account, credentials), reviewing.handle), {
          _tag: "NotPublished"
        })
        assert.strictEqual(fake.calls("GET", POSTS).length, lists)
        // A lost create that Google rejected is left for a person.
        fake.state.reviewReads = 0
        fake.state.rejectNext = true
        const rejected = request(account, credentials, { content: "Rejected, answer lost" })
        const rejectedHandle = yield* publisher.prepare(rejected)
        fake.script("POST", POSTS, { status: 200, dropAnswer: true })
        yield* Effect.exit(publisher.publish(rejected, rejectedHandle))
        assert.deepStrictEqual(yield* publisher.recover!(rejected, rejectedHandle), { _tag: "Unknown" })
      })
  )

  it.effect("take-down deletes the post; a repeat (Google no longer has it) counts as removed", () =>
    Effect.gen(function* () {
      const { publisher, credentials, account } = yield* connected()
      const { externalId } = publishedOf(yield* publisher.publish(request(account, credentials)))
      yield* publisher.unpublish!({ account, credentials, externalId, kind: "post" })
      assert.isFalse(fake.posts.has(externalId))
      assert.strictEqual(fake.calls("DELETE", `/v4/${externalId}`).length, 1)
      const again = yield* Effect.exit(publisher.unpublish!({ account, credentials, externalId, kind: "post" }))
      assert.isTrue(Exit.isSuccess(again))
    })
  )
})
