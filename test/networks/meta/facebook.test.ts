import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import type { NetworkCredentials } from "../../../application/ports/Connectors.ts"
import type { Account } from "../../../domain/account.ts"
import type { Media } from "../../../domain/media.ts"
import { type FakeGraph, startFakeGraph } from "./fakeGraph.ts"
import {
  accountOf,
  callbackFor,
  connect,
  facebookOn,
  type Files,
  processingOf,
  publishedOf,
  requestFor,
  setNow,
  startFiles,
  T0,
  upload,
  VERSION
} from "./support.ts"
import { viewOf } from "../shared/reason.ts"

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
/** Ada's Pages connected on a fresh Facebook network (its own rate gate), a day after the last test's. */
const connected = Effect.gen(function* () {
  yield* setNow(fake, T0 + ++day * 86_400_000)
  fake.state.facebookUser = "10150000000000001"
  fake.state.grantedFacebookScopes = null
  const network = facebookOn(fake, files)
  const connections = yield* connect(network)
  const bakery = connections.find((c) => c.profile.externalId === "101000000000001")!
  return { network, connections, bakery, account: accountOf("facebook", bakery), credentials: bakery.credentials! }
})

const since = () => fake.requests.length
const callsFrom = (start: number) => fake.requests.slice(start).map((r) => `${r.method} ${r.path}`)

describe("Facebook connector against the fake Graph API", () => {
  it.effect(
    "asks for Facebook's dialog with the app's scopes, trades the code for a long-lived user token, and keeps only Page tokens that do not expire",
    () =>
      Effect.gen(function* () {
        yield* setNow(fake, T0)
        const network = facebookOn(fake, files)
        const begun = yield* network.connector.begin({
          state: "st-1",
          callbackUrl: callbackFor("facebook"),
          formUrl: ""
        })
        const url = new URL(begun.url)
        assert.strictEqual(`${url.origin}${url.pathname}`, `${fake.origin}/${VERSION}/dialog/oauth`)
        assert.deepStrictEqual(Object.fromEntries(url.searchParams), {
          response_type: "code",
          client_id: fake.apps.facebook.clientId,
          redirect_uri: callbackFor("facebook"),
          state: "st-1",
          scope:
            "pages_show_list,pages_read_engagement,pages_manage_posts,pages_manage_engagement,business_management,instagram_basic,instagram_content_publish,instagram_manage_comments,read_insights,instagram_manage_insights"
        })
        assert.isNull(begun.verifier)
        const start = since()
        const connections = yield* connect(network)
        assert.deepStrictEqual(callsFrom(start).slice(1), [
          `POST /${VERSION}/oauth/access_token`,
          `GET /${VERSION}/oauth/access_token`,
          `GET /${VERSION}/me/accounts`,
          `GET /${VERSION}/me/businesses`,
          `GET /${VERSION}/200000000000001/owned_pages`
        ])
        const [exchange, longLived] = fake.requests.slice(start + 1, start + 3)
        assert.deepInclude(exchange!.body, {
          client_id: fake.apps.facebook.clientId,
          client_secret: fake.apps.facebook.clientSecret,
          redirect_uri: callbackFor("facebook"),
          grant_type: "authorization_code"
        })
        assert.deepInclude(longLived!.query, {
          grant_type: "fb_exchange_token",
          client_id: fake.apps.facebook.clientId,
          client_secret: fake.apps.facebook.clientSecret
        })
        // Pages from /me/accounts and from the business portfolio; the Archive gives no Page token, so it is left out.
        assert.deepStrictEqual(
          connections.map((c) => [c.platform ?? "facebook", c.profile.name]),
          [
            ["facebook", "Herald Bakery"],
            ["instagram", "Herald Bakery IG"],
            ["facebook", "Herald Books"],
            ["facebook", "Herald Studio"]
          ]
        )
        for (const c of connections) {
          const info = fake.tokenInfo(c.credentials!.accessToken)!
          assert.deepStrictEqual({ kind: info.kind, expiresAt: info.expiresAt }, { kind: "page", expiresAt: null })
          assert.deepStrictEqual(
            { refreshToken: c.credentials!.refreshToken, expiresAt: c.credentials!.expiresAt },
            { refreshToken: null, expiresAt: null }
          )
        }
        const [bakery, bakeryIg] = connections
        assert.deepStrictEqual(bakery!.profile, {
          externalId: "101000000000001",
          name: "Herald Bakery",
          username: "heraldbakery",
          avatarUrl: "https://scontent.example/101000000000001.jpg"
        })
        assert.deepStrictEqual(bakeryIg!.profile, {
          externalId: "17841400000000001",
          name: "Herald Bakery IG",
          username: "herald.bakery",
          avatarUrl: "https://scontent.example/17841400000000001.jpg"
        })
        assert.deepStrictEqual(bakeryIg!.credentials!.extra, { login: "facebook", pageId: "101000000000001" })
        assert.strictEqual(fake.tokenInfo(bakeryIg!.credentials!.accessToken)!.subject, "101000000000001")
      })
  )

  it.effect(
    "a person who declines comes back with Meta's words; a grant without pages_show_list or Pages is refused with what to do",
    () =>
      Effect.gen(function* () {
        const network = facebookOn(fake, files)
        fake.state.deny = true
        const declined = yield* Effect.flip(connect(network))
        fake.state.deny = false
        assert.strictEqual(declined.code, "upstream_rejected")
        // A fixed sentence, never the description the callback URL carried.
        assert.include(declined.detail ?? "", "did not grant access")
        assert.notInclude(declined.detail ?? "", "Permissions error")
        fake.state.grantedFacebookScopes = ["pages_manage_posts"]
        const none = yield* Effect.flip(connect(network))
        fake.state.grantedFacebookScopes = null
        assert.strictEqual(none.code, "upstream_rejected")
        assert.include(none.detail ?? "", "Facebook gave Herald no Page to post to.")
      })
  )
})

describe("Facebook publisher against the fake Graph API", () => {
  it.effect(
    "text with a link: one POST /{page}/feed with the Page token, the link for Meta's preview, and the post's URL",
    () =>
      Effect.gen(function* () {
        const { network, account, credentials } = yield* connected
        const start = since()
        const post = publishedOf(
          yield* network.publisher.publish(
            requestFor(account, credentials, { content: "Fresh bread today: https://bakery.example/menu." }),
            yield* network.publisher.prepare!(requestFor(account, credentials))
          )
        )
        assert.deepStrictEqual(callsFrom(start), [`POST /${VERSION}/101000000000001/feed`])
        assert.deepStrictEqual(fake.requests[start]!.body, {
          message: "Fresh bread today: https://bakery.example/menu.",
          link: "https://bakery.example/menu",
          appsecret_proof: fake.proofOf("facebook", credentials.accessToken)
        })
        assert.strictEqual(fake.requests[start]!.headers.authorization, `Bearer ${credentials.accessToken}`)
        assert.match(post.externalId, /^101000000000001_\d+$/)
        assert.strictEqual(post.url, `https://www.facebook.com/${post.externalId}`)
      })
  )

  it.effect(
    "photos: each uploaded unpublished from a signed URL Meta fetches, then one post with them attached; a first comment is a comment on it",
    () =>
      Effect.gen(function* () {
        const { network, account, credentials } = yield* connected
        const images = [yield* upload(files.blobs, "image"), yield* upload(files.blobs, "image", 3000)]
        const start = since()
        const post = publishedOf(
          yield* network.publisher.publish(requestFor(account, credentials, { content: "Two loaves", media: images }))
        )
        const photoCalls = fake
          .calls("POST", `/${VERSION}/101000000000001/photos`)
          .filter((r) => fake.requests.indexOf(r) >= start)
        assert.lengthOf(photoCalls, 2)
        for (const [i, call] of photoCalls.entries()) {
          assert.strictEqual(call.body.published, "false")
          const fetched = fake.fetches.find((f) => f.url === call.body.url)!
          assert.deepStrictEqual(
            { status: fetched.status, bytes: fetched.bytes },
            { status: 200, bytes: images[i]!.sizeBytes }
          )
          assert.match(
            String(call.body.url),
            new RegExp(`^${files.origin}/files/media/med_meta\\d+/f.jpg\\?expires=\\d+&signature=`)
          )
        }
        const feed = fake.posts.find((p) => p.id === post.externalId)!
        assert.lengthOf(feed.attached, 2)
        const comment = publishedOf(
          yield* network.publisher.publish(
            requestFor(account, credentials, {
              content: "Order at the counter",
              replyTo: { rootId: post.externalId, parentId: post.externalId }
            })
          )
        )
        assert.deepInclude(fake.posts.find((p) => p.id === comment.externalId)!, {
          kind: "comment",
          replyTo: post.externalId,
          text: "Order at the counter"
        })
      })
  )

  it.effect("a video: Meta fetches it with its cover as thumb; each call polls once until Meta says ready", () =>
    Effect.gen(function* () {
      const { network, account, credentials } = yield* connected
      const video = yield* upload(files.blobs, "video", 50_000)
      const cover = yield* upload(files.blobs, "image", 1234)
      fake.state.videoPolls = 3
      const request = requestFor(account, credentials, {
        content: "Behind the oven",
        media: [video],
        cover: { mediaId: cover.id },
        coverMedia: cover
      })
      const first = processingOf(yield* network.publisher.publish(request, yield* network.publisher.prepare!(request)))
      const upload_ = fake.calls("POST", `/${VERSION}/101000000000001/videos`).at(-1)!
      assert.deepInclude(upload_.body, {
        description: "Behind the oven",
        published: "true",
        thumb: { bytes: 1234, type: "image/jpeg" }
      })
      const videoId = JSON.parse(first.handle).videoId
      assert.strictEqual(first.checkAfterMs, 10_000)
      const second = processingOf(yield* network.publisher.publish(request, first.handle))
      assert.strictEqual(second.checkAfterMs, 20_000)
      const third = processingOf(yield* network.publisher.publish(request, second.handle))
      const done = publishedOf(yield* network.publisher.publish(request, third.handle))
      assert.deepStrictEqual(done, {
        externalId: videoId,
        url: `https://www.facebook.com/101000000000001/videos/${videoId}/`
      })
      assert.lengthOf(
        fake
          .calls("POST", `/${VERSION}/101000000000001/videos`)
          .filter((r) => r === upload_ || fake.requests.indexOf(r) > fake.requests.indexOf(upload_)),
        1
      )
    })
  )

  it.effect(
    "Meta's duplicate (506) is duplicate_content with Meta's words; a policy block is upstream_rejected with error_user_msg",
    () =>
      Effect.gen(function* () {
        const { network, account, credentials } = yield* connected
        yield* network.publisher.publish(requestFor(account, credentials, { content: "Same words" }))
        const duplicate = yield* Effect.flip(
          network.publisher.publish(requestFor(account, credentials, { content: "Same words" }))
        )
        assert.deepInclude(duplicate, { code: "duplicate_content", retryable: false })
        assert.include(duplicate.message, "identical to the last one you posted")
        fake.script("POST", `/${VERSION}/101000000000001/feed`, {
          status: 400,
          body: {
            error: {
              message: "(#368) The action attempted has been deemed abusive or is otherwise disallowed",
              type: "OAuthException",
              code: 368,
              error_subcode: 1_390_008,
              error_user_title: "You Can't Post Right Now",
              error_user_msg: "Your post goes against our Community Standards.",
              fbtrace_id: "x"
            }
          }
        })
        const blocked = yield* Effect.flip(
          network.publisher.publish(requestFor(account, credentials, { content: "Blocked" }))
        )
        assert.deepInclude(blocked, {
          code: "upstream_rejected",
          message: "You Can't Post Right Now: Your post goes against our Community Standards.",
          retryable: false
        })
      })
  )

  it.effect(
    "throttled (code 32 with the page's usage header): rate limited for the time Meta names, and no call reaches Meta before it",
    () =>
      Effect.gen(function* () {
        const { network, account, credentials } = yield* connected
        fake.script("POST", `/${VERSION}/101000000000001/feed`, {
          status: 400,
          headers: {
            "x-business-use-case-usage": JSON.stringify({
              "101000000000001": [
                {
                  type: "pages",
                  call_count: 100,
                  total_cputime: 30,
                  total_time: 40,
                  estimated_time_to_regain_access: 17
                }
              ]
            })
          },
          body: {
            error: { message: "(#32) Page request limit reached", type: "OAuthException", code: 32, fbtrace_id: "x" }
          }
        })
        const throttled = yield* Effect.flip(
          network.publisher.publish(requestFor(account, credentials, { content: "Busy page" }))
        )
        assert.deepInclude(viewOf(throttled), {
          code: "rate_limited",
          reason: "RateLimited",
          retryable: true,
          retryAfterMs: 17 * 60_000
        })
        const start = since()
        const again = yield* Effect.flip(
          network.publisher.publish(requestFor(account, credentials, { content: "Busy page" }))
        )
        assert.strictEqual(again.reason._tag, "RateLimited")
        assert.strictEqual(since(), start)
        yield* setNow(fake, fake.state.clock! + 17 * 60_000 + 1)
        assert.strictEqual(
          publishedOf(
            yield* network.publisher.publish(requestFor(account, credentials, { content: "Busy page" }))
          ).url?.startsWith("https://www.facebook.com/"),
          true
        )
      })
  )

  it.effect("a token revoked on Meta's side (190) is revoked: the account needs reconnecting, not a renewal", () =>
    Effect.gen(function* () {
      const { network, account, credentials } = yield* connected
      fake.revoke("10150000000000001")
      const error = yield* Effect.flip(
        network.publisher.publish(requestFor(account, credentials, { content: "After the password change" }))
      )
      assert.deepInclude(viewOf(error), { code: "account_needs_reconnection", reason: "Revoked", retryable: false })
      assert.include(error.message, "Error validating access token")
    })
  )

  it.effect("a post whose answer was lost is found among the Page's recent posts, not posted again", () =>
    Effect.gen(function* () {
      const { network, account, credentials } = yield* connected
      const request = requestFor(account, credentials, { content: "Lost in the network" })
      const handle = yield* network.publisher.prepare!(request)
      fake.script("POST", `/${VERSION}/101000000000001/feed`, { status: 200, dropAnswer: true })
      const exit = yield* Effect.exit(network.publisher.publish(request, handle))
      assert.isTrue(exit._tag === "Failure")
      const recovered = yield* network.publisher.recover!(request, handle)
      const made = fake.posts.filter((p) => p.text === "Lost in the network")
      assert.lengthOf(made, 1)
      assert.deepStrictEqual(recovered, {
        _tag: "Published",
        published: { externalId: made[0]!.id, url: `https://www.facebook.com/${made[0]!.id}` }
      })
      assert.deepStrictEqual(
        yield* network.publisher.recover!(requestFor(account, credentials, { content: "Never sent" }), handle),
        { _tag: "NotPublished" }
      )
    })
  )
})

describe("Facebook reels against the fake Graph API", () => {
  const reelRequest = (
    account: Account,
    credentials: NetworkCredentials,
    video: Media,
    content = "Behind the oven, as a reel"
  ) => requestFor(account, credentials, { content, media: [video], options: { facebook: { reel: true } } })
  const reelCalls = (start: number) => callsFrom(start).map((c) => c.replace(/\d{15,}/g, ":id"))

  it.effect(
    "start, the upload with the Page token and Herald's signed link as file_url, finish with PUBLISHED and the text; polled until live at /reel/{id}",
    () =>
      Effect.gen(function* () {
        const { network, account, credentials } = yield* connected
        const video = yield* upload(files.blobs, "video", 40_000)
        fake.state.videoPolls = 3
        const request = reelRequest(account, credentials, video)
        const start = since()
        const started = processingOf(
          yield* network.publisher.publish(request, yield* network.publisher.prepare!(request))
        )
        assert.strictEqual(started.checkAfterMs, 0, "the session is stored before anything is uploaded")
        assert.deepStrictEqual(reelCalls(start), [`POST /${VERSION}/:id/video_reels`])
        assert.deepStrictEqual(fake.requests[start]!.body, {
          upload_phase: "start",
          appsecret_proof: fake.proofOf("facebook", credentials.accessToken)
        })
        assert.strictEqual(fake.requests[start]!.headers.authorization, `Bearer ${credentials.accessToken}`)
        const { videoId, uploadUrl } = JSON.parse(started.handle)
        assert.strictEqual(uploadUrl, `${fake.origin}/video-upload/${VERSION}/${videoId}`)

        const sent = since()
        const finished = processingOf(yield* network.publisher.publish(request, started.handle))
        assert.deepStrictEqual(reelCalls(sent), [
          `GET /${VERSION}/:id`,
          `POST /video-upload/${VERSION}/:id`,
          `POST /${VERSION}/:id/video_reels`
        ])
        const [, rupload, finish] = fake.requests.slice(sent)
        assert.strictEqual(rupload!.headers.authorization, `OAuth ${credentials.accessToken}`)
        assert.match(
          rupload!.headers.file_url!,
          new RegExp(`^${files.origin}/files/media/med_meta\\d+/f.mp4\\?expires=\\d+&signature=`)
        )
        assert.deepStrictEqual(
          fake.fetches.filter((f) => f.url === rupload!.headers.file_url).map((f) => [f.status, f.bytes]),
          [[200, 40_000]]
        )
        assert.deepStrictEqual(finish!.body, {
          upload_phase: "finish",
          video_id: videoId,
          video_state: "PUBLISHED",
          description: "Behind the oven, as a reel",
          appsecret_proof: fake.proofOf("facebook", credentials.accessToken)
        })
        assert.strictEqual(finish!.headers.authorization, `Bearer ${credentials.accessToken}`)
        assert.deepInclude(JSON.parse(finished.handle), { stage: "video", videoId, reel: true })
        assert.strictEqual(finished.checkAfterMs, 10_000)

        const second = processingOf(yield* network.publisher.publish(request, finished.handle))
        const third = processingOf(yield* network.publisher.publish(request, second.handle))
        assert.deepStrictEqual([second.checkAfterMs, third.checkAfterMs], [20_000, 40_000])
        const live = publishedOf(yield* network.publisher.publish(request, third.handle))
        assert.deepStrictEqual(live, { externalId: videoId, url: `https://www.facebook.com/reel/${videoId}` })
        assert.deepInclude(fake.videos.get(videoId)!, {
          reel: true,
          finished: true,
          status: "ready",
          description: "Behind the oven, as a reel"
        })
        assert.deepStrictEqual(
          [`POST /${VERSION}/:id/video_reels`, `POST /video-upload/${VERSION}/:id`].map(
            (c) => reelCalls(start).filter((x) => x === c).length
          ),
          [2, 1],
          "one start and one finish, one upload"
        )
        // The first comment is a comment on the reel.
        const comment = publishedOf(
          yield* network.publisher.publish(
            requestFor(account, credentials, {
              content: "Recipe below",
              replyTo: { rootId: videoId, parentId: videoId }
            })
          )
        )
        assert.deepInclude(fake.posts.find((p) => p.id === comment.externalId)!, { kind: "comment", replyTo: videoId })
      })
  )

  it.effect(
    "a crash between finish and the status: recovery asks the stored video id, and publishing goes on without a second upload or finish",
    () =>
      Effect.gen(function* () {
        const { network, account, credentials } = yield* connected
        const video = yield* upload(files.blobs, "video", 30_000)
        fake.state.videoPolls = 2
        const request = reelRequest(account, credentials, video, "A reel whose finish answer was lost")
        const started = processingOf(
          yield* network.publisher.publish(request, yield* network.publisher.prepare!(request))
        )
        const { videoId } = JSON.parse(started.handle)
        fake.script("POST", `/${VERSION}/101000000000001/video_reels`, { status: 200, dropAnswer: true })
        const lost = yield* Effect.exit(network.publisher.publish(request, started.handle))
        assert.isTrue(
          lost._tag === "Failure",
          "the outcome of the finish is unknown: the checkpoint (the reel handle) stays"
        )
        assert.isTrue(fake.videos.get(videoId)!.finished, "Meta received the finish")

        const start = since()
        assert.deepStrictEqual(yield* network.publisher.recover!(request, started.handle), { _tag: "NotPublished" })
        const resumed = processingOf(yield* network.publisher.publish(request, started.handle))
        assert.deepStrictEqual(
          reelCalls(start),
          [`GET /${VERSION}/:id`, `GET /${VERSION}/:id`],
          "two status reads: no upload, no finish"
        )
        assert.deepInclude(JSON.parse(resumed.handle), { stage: "video", videoId, reel: true })
        const live = publishedOf(yield* network.publisher.publish(request, resumed.handle))
        assert.deepStrictEqual(live, { externalId: videoId, url: `https://www.facebook.com/reel/${videoId}` })
        // Once live, the same stored handle recovers as published.
        assert.deepStrictEqual(yield* network.publisher.recover!(request, started.handle), {
          _tag: "Published",
          published: live
        })
        assert.lengthOf(
          fake.requests.filter((r) => r.path === `/video-upload/${VERSION}/${videoId}`),
          1
        )
      })
  )

  it.effect(
    "an upload whose answer was lost keeps the reel and waits; the next call sees Meta has the file and only finishes",
    () =>
      Effect.gen(function* () {
        const { network, account, credentials } = yield* connected
        const video = yield* upload(files.blobs, "video", 20_000)
        const request = reelRequest(account, credentials, video, "A reel whose upload answer was lost")
        const started = processingOf(
          yield* network.publisher.publish(request, yield* network.publisher.prepare!(request))
        )
        const { videoId } = JSON.parse(started.handle)
        fake.script("POST", `/video-upload/${VERSION}/${videoId}`, { status: 200, dropAnswer: true })
        const waiting = processingOf(yield* network.publisher.publish(request, started.handle))
        assert.deepStrictEqual(JSON.parse(waiting.handle), JSON.parse(started.handle))
        assert.strictEqual(waiting.checkAfterMs, 60_000)
        const start = since()
        const finished = processingOf(yield* network.publisher.publish(request, waiting.handle))
        assert.deepStrictEqual(reelCalls(start), [`GET /${VERSION}/:id`, `POST /${VERSION}/:id/video_reels`])
        assert.deepInclude(JSON.parse(finished.handle), { stage: "video", reel: true })
      })
  )

  it.effect(
    "30 reels a Page in 24 hours: the 31st waits as a rate limit without calling Meta; the dry run's advice says so; a Page video is not counted",
    () =>
      Effect.gen(function* () {
        const { network, account, credentials } = yield* connected
        const video = yield* upload(files.blobs, "video", 1000)
        const t0 = fake.state.clock!
        const advice = (dueAt: number, options = { facebook: { reel: true } }) =>
          network.publisher.advise!(account, dueAt, { media: [video], options })
        assert.deepStrictEqual(yield* advice(t0), [
          `Facebook: this server published 0 of the 30 reels a Page may publish in 24 hours to ${account.username}.`
        ])
        assert.deepStrictEqual(
          yield* advice(t0, {} as { facebook: { reel: boolean } }),
          [],
          "no advice for a post that is not a reel"
        )
        for (let i = 0; i < 30; i++) {
          yield* setNow(fake, t0 + i * 60_000)
          const request = reelRequest(account, credentials, video, `Reel number ${i}`)
          const started = processingOf(
            yield* network.publisher.publish(request, yield* network.publisher.prepare!(request))
          )
          processingOf(yield* network.publisher.publish(request, started.handle))
        }
        const last = t0 + 29 * 60_000
        const start = since()
        const capped = yield* Effect.flip(
          network.publisher.publish(
            reelRequest(account, credentials, video, "Reel 31"),
            yield* network.publisher.prepare!(requestFor(account, credentials))
          )
        )
        assert.deepInclude(viewOf(capped), {
          code: "rate_limited",
          reason: "RateLimited",
          retryable: true,
          retryAfterMs: t0 + 86_400_000 - last
        })
        assert.include(capped.message, `the reel waits until ${new Date(t0 + 86_400_000).toISOString()}`)
        assert.strictEqual(since(), start, "Meta is not called")
        assert.deepStrictEqual(yield* advice(last), [
          `Facebook: this server published 30 of the 30 reels a Page may publish in 24 hours to ${account.username}.`,
          `Facebook's 30 reels a day are used up for ${account.username}: the reel waits until ${new Date(t0 + 86_400_000).toISOString()}.`
        ])
        assert.lengthOf(
          yield* advice(t0 + 86_400_000 + 1),
          1,
          "a reel due after the first one left the 24 hours does not wait"
        )
        // A Page video is not a reel: it goes now.
        const pageVideo = processingOf(
          yield* network.publisher.publish(
            requestFor(account, credentials, { content: "A Page video", media: [video] })
          )
        )
        assert.deepInclude(JSON.parse(pageVideo.handle), { stage: "video" })
        yield* setNow(fake, t0 + 86_400_000)
        const reel31 = reelRequest(account, credentials, video, "Reel 31")
        assert.deepInclude(
          JSON.parse(
            processingOf(yield* network.publisher.publish(reel31, yield* network.publisher.prepare!(reel31))).handle
          ),
          { stage: "reel" }
        )
      })
  )

  it.effect(
    "a reel Meta cannot fetch fails with Meta's words; a Page video's status read while Meta throttles keeps the video and waits",
    () =>
      Effect.gen(function* () {
        const { network, account, credentials } = yield* connected
        const video = yield* upload(files.blobs, "video", 5000)
        const request = reelRequest(account, credentials, video, "A reel from a dead link")
        const started = processingOf(
          yield* network.publisher.publish(request, yield* network.publisher.prepare!(request))
        )
        const { videoId } = JSON.parse(started.handle)
        yield* files.blobs.delete(video.blobKey)
        const failed = yield* Effect.flip(network.publisher.publish(request, started.handle))
        assert.deepInclude(failed, { code: "upstream_rejected", retryable: false })
        assert.include(failed.message, "The video file could not be downloaded.")
        assert.isFalse(fake.videos.get(videoId)!.finished, "no finish for a reel without its file")

        const pageVideo = yield* upload(files.blobs, "video", 5000)
        const plain = requestFor(account, credentials, {
          content: "A Page video while Meta throttles",
          media: [pageVideo]
        })
        const created = processingOf(yield* network.publisher.publish(plain, yield* network.publisher.prepare!(plain)))
        fake.script("GET", `/${VERSION}/${JSON.parse(created.handle).videoId}`, {
          status: 400,
          body: {
            error: { message: "(#32) Page request limit reached", type: "OAuthException", code: 32, fbtrace_id: "x" }
          }
        })
        const waiting = processingOf(yield* network.publisher.publish(plain, created.handle))
        assert.deepStrictEqual(
          JSON.parse(waiting.handle),
          JSON.parse(created.handle),
          "the video is kept, never made again"
        )
        assert.isAbove(waiting.checkAfterMs, 0)
      })
  )
})
