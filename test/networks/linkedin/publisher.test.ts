import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { type FakeLinkedIn, startFakeLinkedIn } from "./fakeLinkedIn.ts"
import { accountOf, connect, linkedInOn, publishedOf, publishThrough, request, setNow, T0, upload } from "./support.ts"
import { outcomeUnknown, viewOf } from "../shared/reason.ts"

let fake: FakeLinkedIn
beforeAll(async () => void (fake = await startFakeLinkedIn()))
afterAll(() => fake.close())

let day = 0
/** Alice (a member) and her page, connected on a fresh LinkedIn network (its own gate), a day after the last test's. */
const connected = Effect.gen(function* () {
  yield* setNow(fake, T0 + ++day * 86_400_000)
  fake.state.videoPartBytes = 4 * 1024 * 1024
  fake.state.videoPolls = 3
  const { network, blobs } = yield* linkedInOn(fake)
  const [member, page] = yield* connect(network)
  const credentials = member.credentials!
  return { network, blobs, credentials, publisher: network.publisher, member: accountOf(member), page: accountOf(page) }
})

const lastPost = () => fake.calls("POST", "/rest/posts").at(-1)!

describe("LinkedIn publisher against the fake LinkedIn", () => {
  it.effect(
    "text as the member: little text escaped, #tags as hashtags, the versioned headers; the URN from x-restli-id",
    () =>
      Effect.gen(function* () {
        const { publisher, credentials, member } = yield* connected
        const content = "Shipping v2 (finally) #Herald <3 — ask @team_lead"
        const req = request(member, credentials, { content })
        const { externalId, url } = publishedOf(yield* publisher.publish(req, yield* publisher.prepare!(req)))
        assert.match(externalId, /^urn:li:share:\d+$/)
        assert.strictEqual(url, `https://www.linkedin.com/feed/update/${externalId}/`)
        const sent = lastPost()
        assert.deepStrictEqual(sent.body, {
          author: "urn:li:person:m-alice",
          commentary: String.raw`Shipping v2 \(finally\) {hashtag|\#|Herald} \<3 — ask \@team\_lead`,
          visibility: "PUBLIC",
          distribution: { feedDistribution: "MAIN_FEED", targetEntities: [], thirdPartyDistributionChannels: [] },
          lifecycleState: "PUBLISHED",
          isReshareDisabledByAuthor: false
        })
        assert.strictEqual(sent.headers.authorization, `Bearer ${credentials.accessToken}`)
        assert.strictEqual(sent.headers["linkedin-version"], "202607")
        assert.strictEqual(sent.headers["x-restli-protocol-version"], "2.0.0")
        const made = fake.posts.find((p) => p.urn === externalId)!
        assert.strictEqual(made.rendered, content)
        assert.deepStrictEqual(made.hashtags, ["Herald"])
      })
  )

  it.effect(
    "a poll as the page: question, options and a duration in LinkedIn's words; without a question the text asks it",
    () =>
      Effect.gen(function* () {
        const { publisher, credentials, page } = yield* connected
        publishedOf(
          yield* publisher.publish(
            request(page, credentials, {
              content: "Help us choose",
              poll: { question: "Which logo?", options: ["Blue", "Green", "Neither"], durationMinutes: 4320 }
            })
          )
        )
        assert.deepStrictEqual((lastPost().body as any).content, {
          poll: {
            question: "Which logo?",
            options: [{ text: "Blue" }, { text: "Green" }, { text: "Neither" }],
            settings: { duration: "THREE_DAYS" }
          }
        })
        assert.strictEqual((lastPost().body as any).author, "urn:li:organization:2414183")
        publishedOf(
          yield* publisher.publish(
            request(page, credentials, {
              content: "Tea or coffee?",
              poll: { options: ["Tea", "Coffee"], durationMinutes: 20_160 }
            })
          )
        )
        assert.deepStrictEqual((lastPost().body as any).content.poll, {
          question: "Tea or coffee?",
          options: [{ text: "Tea" }, { text: "Coffee" }],
          settings: { duration: "FOURTEEN_DAYS" }
        })
      })
  )

  it.effect(
    "two images: each initialized and PUT with the bearer token, a ready checkpoint, then one multiImage post with the URNs in order",
    () =>
      Effect.gen(function* () {
        const { network, publisher, credentials, member, blobs } = yield* connected
        const images = [
          yield* upload(blobs, "image", "image/png", 2_300_000),
          yield* upload(blobs, "image", "image/jpeg", 900)
        ]
        const req = request(member, credentials, { content: "Two pictures", media: images })
        const start = fake.requests.length
        const outcomes = yield* publishThrough(network, req, yield* publisher.prepare!(req))
        assert.deepStrictEqual(
          outcomes.map((o) => (o._tag === "Processing" ? o.checkAfterMs : o._tag)),
          [0, "Published"]
        )
        const calls = fake.requests.slice(start)
        assert.deepStrictEqual(
          calls
            .map((r) => `${r.method} ${r.path.replace(/\/dms-uploads\/image\/.+$/, "/dms-uploads/image/:id")}`)
            .sort(),
          [
            "POST /rest/images",
            "POST /rest/images",
            "POST /rest/posts",
            "PUT /dms-uploads/image/:id",
            "PUT /dms-uploads/image/:id"
          ]
        )
        for (const put of calls.filter((r) => r.method === "PUT"))
          assert.strictEqual(put.headers.authorization, `Bearer ${credentials.accessToken}`)
        assert.deepStrictEqual(
          calls.filter((r) => r.path === "/rest/images").map((r) => r.body),
          [
            { initializeUploadRequest: { owner: "urn:li:person:m-alice" } },
            { initializeUploadRequest: { owner: "urn:li:person:m-alice" } }
          ]
        )
        const ids: Array<string> = (lastPost().body as any).content.multiImage.images.map((i: any) => i.id)
        assert.deepStrictEqual(
          ids.map((id) => fake.images.get(id)?.bytes),
          [2_300_000, 900]
        )
        // One image is content.media.
        publishedOf(
          (yield* publishThrough(
            network,
            request(member, credentials, { content: "One picture", media: [images[1]] })
          )).at(-1)!
        )
        assert.match((lastPost().body as any).content.media.id, /^urn:li:image:/)
      })
  )

  it.effect(
    "a video with a cover: each part PUT to its own URL, ETags finalized in order, the thumbnail, then processing polled as Processing outcomes, then the post",
    () =>
      Effect.gen(function* () {
        const { network, publisher, credentials, page, blobs } = yield* connected
        fake.state.videoPartBytes = 1024 * 1024
        const video = yield* upload(blobs, "video", "video/mp4", 2 * 1024 * 1024 + 4321)
        const cover = yield* upload(blobs, "image", "image/jpeg", 5000)
        const req = request(page, credentials, {
          content: "Our launch video",
          media: [video],
          cover: { mediaId: cover.id },
          coverMedia: cover
        })
        const start = fake.requests.length
        const handle = yield* publisher.prepare!(req)
        const first = yield* publisher.publish(req, handle)
        assert.strictEqual(first._tag, "Processing")
        if (first._tag !== "Processing") return
        const sent = fake.requests.slice(start)
        assert.deepStrictEqual(
          sent.map((r) => `${r.method} ${r.path.replace(/C5F\d+/, ":id")}`),
          [
            "POST /rest/videos",
            "PUT /dms-uploads/video/:id/part/0",
            "PUT /dms-uploads/video/:id/part/1",
            "PUT /dms-uploads/video/:id/part/2",
            "POST /rest/videos",
            "PUT /dms-uploads/thumbnail/:id"
          ]
        )
        assert.deepStrictEqual(sent[0].body, {
          initializeUploadRequest: {
            owner: "urn:li:organization:2414183",
            fileSizeBytes: 2 * 1024 * 1024 + 4321,
            uploadCaptions: false,
            uploadThumbnail: true
          }
        })
        assert.deepStrictEqual(
          sent.slice(1, 4).map((r) => (r.body as any).bytes),
          [1024 * 1024, 1024 * 1024, 4321]
        )
        const finalize = (sent[4].body as any).finalizeUploadRequest
        assert.strictEqual(sent[4].query.action, "finalizeUpload")
        assert.lengthOf(finalize.uploadedPartIds, 3)
        assert.match(finalize.uploadedPartIds[2], /-2$/)
        assert.strictEqual(fake.videos.get(finalize.video)?.thumbnail, 5000)
        // Nothing was posted while LinkedIn processes: a lost attempt needs no call to say so.
        const beforeRecover = fake.requests.length
        assert.deepStrictEqual(yield* publisher.recover!(req, first.handle), { _tag: "NotPublished" })
        assert.strictEqual(fake.requests.length, beforeRecover)
        const outcomes = yield* publishThrough(network, req, first.handle)
        assert.deepStrictEqual(
          [first, ...outcomes].map((o) => (o._tag === "Processing" ? o.checkAfterMs : o._tag)),
          [5000, 10_000, 20_000, 0, "Published"]
        )
        assert.deepStrictEqual(
          fake
            .calls("GET", /^\/rest\/videos\//)
            .slice(-3)
            .map((r) => decodeURIComponent(r.path.split("/").at(-1)!)),
          [finalize.video, finalize.video, finalize.video]
        )
        assert.deepStrictEqual((lastPost().body as any).content, { media: { id: finalize.video } })
        assert.strictEqual(
          fake.requests.slice(start).filter((r) => r.query.action === "initializeUpload").length,
          1,
          "uploaded once"
        )
      })
  )

  it.effect("a video LinkedIn fails to process is upstream_rejected with its reason", () =>
    Effect.gen(function* () {
      const { publisher, credentials, member, blobs } = yield* connected
      fake.state.failProcessing = true
      const req = request(member, credentials, {
        content: "Broken",
        media: [yield* upload(blobs, "video", "video/mp4", 3000)]
      })
      const first = yield* publisher.publish(req)
      const error = yield* Effect.flip(publisher.publish(req, first._tag === "Processing" ? first.handle : undefined))
      assert.strictEqual(error.code, "upstream_rejected")
      assert.include(error.message, "Video format is not supported")
    })
  )

  it.effect("a first comment is a comment on the post, as the same author", () =>
    Effect.gen(function* () {
      const { publisher, credentials, page } = yield* connected
      const root = publishedOf(yield* publisher.publish(request(page, credentials, { content: "Post with a comment" })))
      const comment = publishedOf(
        yield* publisher.publish(
          request(page, credentials, {
            content: "Details in the comments (as promised)",
            replyTo: { rootId: root.externalId, parentId: root.externalId }
          })
        )
      )
      const sent = fake.calls("POST", /\/comments$/).at(-1)!
      assert.strictEqual(sent.path, `/rest/socialActions/${encodeURIComponent(root.externalId)}/comments`)
      assert.deepStrictEqual(sent.body, {
        actor: "urn:li:organization:2414183",
        object: root.externalId,
        message: { text: "Details in the comments (as promised)" }
      })
      assert.match(comment.externalId, /^urn:li:comment:\(urn:li:activity:\d+,\d+\)$/)
      assert.deepInclude(fake.comments.at(-1)!, {
        post: root.externalId,
        text: "Details in the comments (as promised)"
      })
    })
  )

  it.effect(
    "errors: an older duplicate is duplicate_content; other refusals upstream_rejected with LinkedIn's words; expired tokens renew, revoked ones reconnect",
    () =>
      Effect.gen(function* () {
        const { publisher, credentials, member } = yield* connected
        publishedOf(yield* publisher.publish(request(member, credentials, { content: "Said once" })))
        yield* setNow(fake, fake.state.clock! + 3600_000)
        const duplicate = yield* Effect.flip(publisher.publish(request(member, credentials, { content: "Said once" })))
        assert.strictEqual(duplicate.code, "duplicate_content")
        assert.include(duplicate.message, "Content is a duplicate of urn:li:share:")
        const tooLong = yield* Effect.flip(
          publisher.publish(
            request(member, credentials, {
              content: "Bad poll",
              poll: { question: "x".repeat(141), options: ["a", "b"], durationMinutes: 1440 }
            })
          )
        )
        assert.strictEqual(tooLong.code, "upstream_rejected")
        assert.include(tooLong.message, "/content/poll/question must be 1-140 characters")
        fake.script("POST", "/rest/posts", {
          status: 403,
          body: {
            status: 403,
            serviceErrorCode: 100,
            code: "ACCESS_DENIED",
            message: "Not enough permissions to access: partnerApiPostsExternal.CREATE"
          }
        })
        const forbidden = yield* Effect.flip(
          publisher.publish(request(member, credentials, { content: "Not allowed" }))
        )
        assert.deepInclude(viewOf(forbidden), {
          code: "upstream_rejected",
          message: "Not enough permissions to access: partnerApiPostsExternal.CREATE",
          reason: "Refused"
        })
        fake.expireAccess("m-alice")
        const expired = yield* Effect.flip(publisher.publish(request(member, credentials, { content: "Old token" })))
        assert.deepInclude(viewOf(expired), { code: "account_needs_reconnection", reason: "Unauthorized" })
        fake.revoke("m-alice")
        const revoked = yield* Effect.flip(
          publisher.publish(request(member, credentials, { content: "Revoked token" }))
        )
        assert.deepInclude(viewOf(revoked), { reason: "Revoked" })
        assert.include(revoked.message, "revoked by the user")
      })
  )

  it.effect("an API version LinkedIn no longer serves is refused with its words and the setting to change", () =>
    Effect.gen(function* () {
      yield* setNow(fake, T0 + ++day * 86_400_000)
      const { network } = yield* linkedInOn(fake, { version: "202401" })
      const error = yield* Effect.flip(connect(network))
      assert.strictEqual(error.code, "upstream_rejected")
      assert.include(error.detail ?? "", "Requested version 202401 is not active")
      assert.include(error.detail ?? "", "LINKEDIN_VERSION")
    })
  )

  it.effect("a 429 waits until midnight UTC, and the account's next call waits without reaching LinkedIn", () =>
    Effect.gen(function* () {
      const { publisher, credentials, member, page } = yield* connected
      yield* setNow(fake, fake.state.clock! + 3 * 3600_000)
      const now = fake.state.clock!
      const midnight = Math.ceil(now / 86_400_000) * 86_400_000
      fake.script("POST", "/rest/posts", {
        status: 429,
        body: { status: 429, message: "Resource level throttle DAY limit for calls to this resource is reached." }
      })
      const limited = yield* Effect.flip(publisher.publish(request(member, credentials, { content: "Busy day" })))
      assert.deepInclude(viewOf(limited), { code: "rate_limited", reason: "RateLimited", retryAfterMs: midnight - now })
      assert.include(limited.message, "Resource level throttle DAY limit")
      const calls = fake.calls("POST", "/rest/posts").length
      assert.isTrue(
        (yield* Effect.flip(publisher.publish(request(member, credentials, { content: "Still busy" })))).reason._tag ===
          "RateLimited"
      )
      assert.strictEqual(fake.calls("POST", "/rest/posts").length, calls)
      // The page's own limits are its own.
      publishedOf(yield* publisher.publish(request(page, credentials, { content: "The page still posts" })))
      yield* setNow(fake, midnight)
      publishedOf(yield* publisher.publish(request(member, credentials, { content: "Next day" })))
    })
  )

  it.effect(
    "a member's lost answer: sent again with the same body, LinkedIn's duplicate names the post made since the attempt began: published once",
    () =>
      Effect.gen(function* () {
        const { publisher, credentials, member } = yield* connected
        const req = request(member, credentials, { content: "Lost in transit #once" })
        const handle = yield* publisher.prepare!(req)
        fake.script("POST", "/rest/posts", { status: 201, dropAnswer: true })
        const lost = yield* Effect.exit(publisher.publish(req, handle))
        assert.isTrue(outcomeUnknown(lost), "an unknown outcome is OutcomeUnknown for the pipeline")
        const made = fake.posts.at(-1)!
        assert.deepStrictEqual(yield* publisher.recover!(req, handle), { _tag: "NotPublished" })
        yield* setNow(fake, fake.state.clock! + 30_000)
        const again = publishedOf(yield* publisher.publish(req, handle))
        assert.strictEqual(again.externalId, made.urn)
        assert.strictEqual(fake.posts.filter((p) => p.rendered === "Lost in transit #once").length, 1)
      })
  )

  it.effect(
    "a page's lost answer is found among its recent posts without sending again; a lost comment among the post's comments",
    () =>
      Effect.gen(function* () {
        const { publisher, credentials, page, member } = yield* connected
        const req = request(page, credentials, { content: "Page post (lost)" })
        const handle = yield* publisher.prepare!(req)
        fake.script("POST", "/rest/posts", { status: 201, dropAnswer: true })
        assert.isTrue(Exit.isFailure(yield* Effect.exit(publisher.publish(req, handle))))
        const creates = fake.calls("POST", "/rest/posts").length
        const recovered = yield* publisher.recover!(req, handle)
        assert.deepStrictEqual(recovered, {
          _tag: "Published",
          published: {
            externalId: fake.posts.at(-1)!.urn,
            url: `https://www.linkedin.com/feed/update/${fake.posts.at(-1)!.urn}/`
          }
        })
        assert.strictEqual(fake.calls("POST", "/rest/posts").length, creates)
        const read = fake.calls("GET", "/rest/posts").at(-1)!
        assert.deepInclude(read.query, { q: "author", author: "urn:li:organization:2414183" })
        assert.strictEqual(read.headers["x-restli-method"], "FINDER")
        // Not made: nothing found, so the pipeline may send it.
        assert.deepStrictEqual(
          yield* publisher.recover!(request(page, credentials, { content: "Never sent" }), handle),
          { _tag: "NotPublished" }
        )

        const root = fake.posts.at(-1)!.urn
        const commentReq = request(page, credentials, {
          content: "A lost comment",
          replyTo: { rootId: root, parentId: root }
        })
        const commentHandle = yield* publisher.prepare!(commentReq)
        fake.script("POST", /\/comments$/, { status: 201, dropAnswer: true })
        assert.isTrue(Exit.isFailure(yield* Effect.exit(publisher.publish(commentReq, commentHandle))))
        const foundComment = yield* publisher.recover!(commentReq, commentHandle)
        assert.deepStrictEqual(foundComment, {
          _tag: "Published",
          published: { externalId: fake.comments.at(-1)!.urn, url: null }
        })
        // A member cannot read comments back: a person decides.
        assert.deepStrictEqual(yield* publisher.recover!({ ...commentReq, account: member }, commentHandle), {
          _tag: "Unknown"
        })
      })
  )
})
