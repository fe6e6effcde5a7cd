import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import * as HmacFileLinks from "../../../adapters/crypto/HmacFileLinks.ts"
import { processingOf, publishThrough, type ServedBlobs, serveBlobs, upload } from "../shared/harness.ts"
import { viewOf } from "../shared/reason.ts"
import { type FakeGoogleBusiness, resourceExhausted, startFakeGoogleBusiness } from "./fakeGoogleBusiness.ts"
import { connectParis, POSTS, publishedOf, request, T0 } from "./support.ts"

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

describe("Google Business Profile publisher against the fake Google", () => {
  it.effect(
    "an update with one image Google fetches from Herald's link and a LEARN_MORE button: LIVE, with its search URL",
    () =>
      Effect.gen(function* () {
        const { publisher, credentials, account } = yield* connected()
        const image = yield* upload(served.blobs, { type: "image", mimeType: "image/jpeg", bytes: 30_000 })
        const req = request(account, credentials, {
          media: [image.media],
          options: { googleBusiness: { callToAction: { actionType: "LEARN_MORE", url: "https://alices.bakery/menu" } } }
        })
        const made = publishedOf(yield* publisher.publish(req, yield* publisher.prepare(req)))
        assert.match(made.externalId, /^accounts\/1110001\/locations\/9001\/localPosts\/\d+$/)
        assert.strictEqual(
          made.url,
          `https://local.google.com/place?id=9001&use=posts&lpsid=${made.externalId.split("/").pop()}`
        )
        const sent = fake.calls("POST", POSTS).at(-1)!
        assert.strictEqual(sent.headers.authorization, `Bearer ${credentials.accessToken}`)
        const body = sent.body as any
        assert.deepStrictEqual(
          { ...body, media: undefined },
          {
            languageCode: "en",
            summary: "Fresh croissants every morning from 7.",
            topicType: "STANDARD",
            callToAction: { actionType: "LEARN_MORE", url: "https://alices.bakery/menu" },
            media: undefined
          }
        )
        assert.strictEqual(body.media[0].mediaFormat, "PHOTO")
        assert.strictEqual(fake.posts.get(made.externalId)!.imageSha256, image.sha256)
      })
  )

  it.effect(
    "an event with its schedule as Google's Date and TimeOfDay; an offer with coupon, link and terms, and no button",
    () =>
      Effect.gen(function* () {
        const { publisher, credentials, account } = yield* connected()
        const event = {
          title: "Bread workshop",
          startDate: "2026-12-05",
          startTime: "09:30",
          endDate: "2026-12-05",
          endTime: "12:00"
        }
        publishedOf(
          yield* publisher.publish(
            request(account, credentials, {
              options: {
                googleBusiness: { topicType: "EVENT", languageCode: "fr", event, callToAction: { actionType: "CALL" } }
              }
            })
          )
        )
        assert.deepInclude(fake.calls("POST", POSTS).at(-1)!.body as object, {
          languageCode: "fr",
          topicType: "EVENT",
          callToAction: { actionType: "CALL" },
          event: {
            title: "Bread workshop",
            schedule: {
              startDate: { year: 2026, month: 12, day: 5 },
              startTime: { hours: 9, minutes: 30 },
              endDate: { year: 2026, month: 12, day: 5 },
              endTime: { hours: 12, minutes: 0 }
            }
          }
        })
        publishedOf(
          yield* publisher.publish(
            request(account, credentials, {
              options: {
                googleBusiness: {
                  topicType: "OFFER",
                  event: { title: "Winter offer", startDate: "2026-12-01", endDate: "2026-12-31" },
                  offer: {
                    couponCode: "CROISSANT10",
                    redeemOnlineUrl: "https://alices.bakery/offer",
                    termsConditions: "One a day."
                  }
                }
              }
            })
          )
        )
        const offer = fake.calls("POST", POSTS).at(-1)!.body as any
        assert.deepStrictEqual(offer.event, {
          title: "Winter offer",
          schedule: { startDate: { year: 2026, month: 12, day: 1 }, endDate: { year: 2026, month: 12, day: 31 } }
        })
        assert.deepStrictEqual(offer.offer, {
          couponCode: "CROISSANT10",
          redeemOnlineUrl: "https://alices.bakery/offer",
          termsConditions: "One a day."
        })
        assert.notProperty(offer, "callToAction")
      })
  )

  it.effect(
    "Google's review: PROCESSING is a checkpointed Processing outcome asked again until LIVE; REJECTED fails with Google's word",
    () =>
      Effect.gen(function* () {
        const { network, credentials, account } = yield* connected()
        fake.state.reviewReads = 3
        const creates = fake.calls("POST", POSTS).length
        const outcomes = yield* publishThrough(network, request(account, credentials))
        assert.deepStrictEqual(
          outcomes.map((o) => o._tag),
          ["Processing", "Processing", "Processing", "Published"]
        )
        assert.deepStrictEqual(
          outcomes.slice(0, 3).map((o) => processingOf(o).checkAfterMs),
          [10_000, 20_000, 40_000]
        )
        assert.strictEqual(
          fake.calls("POST", POSTS).length,
          creates + 1,
          "the post is sent once, then only asked about"
        )
        const name = publishedOf(outcomes.at(-1)!).externalId
        assert.strictEqual(fake.calls("GET", `/v4/${name}`).length, 3)

        fake.state.reviewReads = 2
        fake.state.rejectNext = true
        const first = processingOf(
          yield* network.publisher.publish(request(account, credentials, { content: "Call 01 23 45 67 89" }))
        )
        const refused = yield* Effect.flip(
          network.publisher
            .publish(request(account, credentials), first.handle)
            .pipe(
              Effect.flatMap((o) => network.publisher.publish(request(account, credentials), processingOf(o).handle))
            )
        )
        assert.deepInclude(viewOf(refused), { code: "upstream_rejected", reason: "Refused", retryable: false })
        assert.include(refused.message, "REJECTED")

        fake.state.reviewReads = 0
        fake.state.rejectNext = true
        const atOnce = yield* Effect.flip(
          network.publisher.publish(request(account, credentials, { content: "Rejected at once" }))
        )
        assert.include(atOnce.message, "Google rejected the post")
      })
  )

  it.effect("400 INVALID_ARGUMENT: Google's error.message is the target's error", () =>
    Effect.gen(function* () {
      const { publisher, credentials, account } = yield* connected()
      const error = yield* Effect.flip(publisher.publish(request(account, credentials, { content: "x".repeat(1501) })))
      assert.deepInclude(viewOf(error), { code: "upstream_rejected", reason: "Refused", retryable: false })
      assert.include(error.message, "summary must be at most 1500 characters. (INVALID_ARGUMENT)")
    })
  )

  it.effect(
    "an expired access token is Unauthorized (the pipeline renews it and sends once more): the renewed one posts",
    () =>
      Effect.gen(function* () {
        const { network, credentials, account } = yield* connected()
        fake.expireAccess("g-alice")
        const refused = yield* Effect.flip(network.publisher.publish(request(account, credentials)))
        assert.deepInclude(viewOf(refused), { code: "account_needs_reconnection", reason: "Unauthorized" })
        const renewed = yield* network.connector.refresh!(credentials)
        publishedOf(
          yield* network.publisher.publish(request(account, { ...renewed, refreshToken: credentials.refreshToken }))
        )
      })
  )

  it.effect("a location the account no longer manages (403 PERMISSION_DENIED) needs reconnection", () =>
    Effect.gen(function* () {
      const { publisher, credentials, account } = yield* connected()
      const elsewhere = { ...credentials, extra: { account: "accounts/1110001", location: "locations/4040" } }
      const error = yield* Effect.flip(publisher.publish(request(account, elsewhere)))
      assert.deepInclude(viewOf(error), { code: "account_needs_reconnection", reason: "Revoked" })
      assert.include(error.message, "The caller does not have permission")
    })
  )

  it.effect("429 RESOURCE_EXHAUSTED waits a minute; meanwhile calls are refused without reaching Google", () =>
    Effect.gen(function* () {
      const { publisher, credentials, account } = yield* connected()
      fake.script("POST", POSTS, resourceExhausted)
      const throttled = yield* Effect.flip(publisher.publish(request(account, credentials)))
      assert.deepInclude(viewOf(throttled), { code: "rate_limited", reason: "RateLimited", retryAfterMs: 60_000 })
      assert.include(throttled.message, "RESOURCE_EXHAUSTED")
      const sent = fake.calls("POST", POSTS).length
      const held = yield* Effect.flip(publisher.publish(request(account, credentials)))
      assert.strictEqual(held.reason._tag, "RateLimited")
      assert.strictEqual(fake.calls("POST", POSTS).length, sent)
      yield* TestClock.adjust(60_000)
      publishedOf(yield* publisher.publish(request(account, credentials)))
    })
  )

  it.effect("no video, no comments or threads; the dry run tells of Google's review and the post's language", () =>
    Effect.gen(function* () {
      const { publisher, credentials, account } = yield* connected()
      const clip = yield* upload(served.blobs, { type: "video", mimeType: "video/mp4", bytes: 1000 })
      const video = yield* Effect.flip(publisher.publish(request(account, credentials, { media: [clip.media] })))
      assert.include(video.message, "no video")
      const reply = yield* Effect.flip(
        publisher.publish(request(account, credentials, { replyTo: { rootId: "p", parentId: "p" } }))
      )
      assert.strictEqual(reply.code, "first_comment_unsupported")
      const advice = yield* publisher.advise!(account, T0, {
        media: [],
        options: { googleBusiness: { topicType: "EVENT" } }
      })
      assert.strictEqual(advice.length, 3)
      assert.include(advice[0], "REJECTED")
      assert.include(advice[1], "event's dates and times are the location's own local time")
      assert.include(advice[2], "marked en (GOOGLE_BUSINESS_LANGUAGE)")
    })
  )
})
