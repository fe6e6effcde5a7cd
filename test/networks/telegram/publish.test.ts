import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { PublishError } from "../../../application/ports/Publishers.ts"
import * as Harness from "../shared/harness.ts"
import { type FakeBotApi, type FakeChat, startFakeBotApi } from "./fakeBotApi.ts"
import { connectWith, failureOf, processingOf, publishedOf, request, run, telegramOn } from "./support.ts"

let fake: FakeBotApi
let token = ""
let channel: FakeChat
beforeAll(async () => {
  fake = await startFakeBotApi()
  token = fake.addBot(7002, "herald_pub_bot")
  channel = fake.addChat({ id: -1001111, type: "channel", title: "Herald News", username: "herald_news" })
  fake.join(channel, token)
})
afterAll(() => fake?.close())

/** The network, a connection to @herald_news, and the blob store uploads go to. */
const setup = Effect.gen(function* () {
  const { network, blobs } = yield* telegramOn(fake)
  const [connection] = yield* connectWith(network, token, "@herald_news")
  return { network, blobs, connection: connection! }
})

const last = () => fake.messages.at(-1)!

describe("Telegram publisher", () => {
  it("posts text with sendMessage, plain (no parse mode: nothing to escape), linked at t.me", () =>
    run(
      Effect.gen(function* () {
        const { network, connection } = yield* setup
        const req = request(connection, { content: "<b>Not bold</b> & 100% plain" })
        const handle = yield* network.publisher.prepare(req)
        expect(JSON.parse(handle)).toMatchObject({ v: 1, stage: "sending" })
        const done = publishedOf(yield* network.publisher.publish(req, handle))
        expect(last()).toMatchObject({ method: "sendMessage", text: "<b>Not bold</b> & 100% plain", replyTo: null })
        expect(done).toEqual({
          externalId: String(last().message_id),
          url: `https://t.me/herald_news/${last().message_id}`
        })
        const sent = fake.calls("sendMessage").at(-1)!
        expect(sent.body).not.toHaveProperty("parse_mode")
        expect(sent.body).toMatchObject({ chat_id: "-1001111" })
      })
    ))

  it("a thread and a first comment are replies: each names its parent in reply_parameters", () =>
    run(
      Effect.gen(function* () {
        const { network, connection } = yield* setup
        const root = publishedOf(yield* network.publisher.publish(request(connection, { content: "Root" })))
        const second = publishedOf(
          yield* network.publisher.publish(
            request(connection, { content: "Second", replyTo: { rootId: root.externalId, parentId: root.externalId } })
          )
        )
        expect(last()).toMatchObject({ text: "Second", replyTo: Number(root.externalId) })
        yield* network.publisher.publish(
          request(connection, { content: "Third", replyTo: { rootId: root.externalId, parentId: second.externalId } })
        )
        expect(last()).toMatchObject({ text: "Third", replyTo: Number(second.externalId) })
        expect(fake.calls("sendMessage").at(-1)!.body).toMatchObject({
          reply_parameters: { message_id: Number(second.externalId) }
        })
      })
    ))

  it("a photo goes up as a multipart file from the blob store, the text its caption", () =>
    run(
      Effect.gen(function* () {
        const { network, blobs, connection } = yield* setup
        const { media, sha256 } = yield* Harness.upload(blobs, { type: "image", mimeType: "image/png", bytes: 5000 })
        const done = publishedOf(
          yield* network.publisher.publish(request(connection, { content: "A picture", media: [media] }))
        )
        expect(last()).toMatchObject({ method: "sendPhoto", caption: "A picture" })
        expect(last().files).toEqual([
          { field: "photo", filename: media.filename, type: "image/png", bytes: 5000, sha256 }
        ])
        expect(done.externalId).toBe(String(last().message_id))
      })
    ))

  it("a video goes up with sendVideo (streamable, its size and duration); a GIF alone with sendAnimation", () =>
    run(
      Effect.gen(function* () {
        const { network, blobs, connection } = yield* setup
        const video = yield* Harness.upload(blobs, { type: "video", mimeType: "video/mp4", bytes: 20_000 })
        yield* network.publisher.publish(request(connection, { content: "", media: [video.media] }))
        expect(last()).toMatchObject({ method: "sendVideo" })
        expect(last()).not.toHaveProperty("caption")
        expect(last().files[0]).toMatchObject({ field: "video", sha256: video.sha256 })
        expect(fake.calls("sendVideo").at(-1)!.body).toMatchObject({
          supports_streaming: "true",
          width: "10",
          height: "10",
          duration: "5"
        })
        const gif = yield* Harness.upload(blobs, { type: "image", mimeType: "image/gif", bytes: 800 })
        yield* network.publisher.publish(request(connection, { content: "Moving", media: [gif.media] }))
        expect(last()).toMatchObject({ method: "sendAnimation", caption: "Moving" })
      })
    ))

  it("2-10 photos and videos go as one album (sendMediaGroup, attach://), the caption on the first; replies go to its first message", () =>
    run(
      Effect.gen(function* () {
        const { network, blobs, connection } = yield* setup
        const items = yield* Effect.forEach([0, 1, 2], (i) =>
          Harness.upload(blobs, {
            type: i === 2 ? "video" : "image",
            mimeType: i === 2 ? "video/mp4" : "image/jpeg",
            bytes: 3000 + i
          })
        )
        const before = fake.messages.length
        const done = publishedOf(
          yield* network.publisher.publish(request(connection, { content: "Album", media: items.map((u) => u.media) }))
        )
        const album = fake.messages.slice(before)
        expect(album.map((m) => m.albumType)).toEqual(["photo", "photo", "video"])
        expect(album.map((m) => m.caption)).toEqual(["Album", undefined, undefined])
        expect(album.map((m) => m.files[0]!.sha256)).toEqual(items.map((u) => u.sha256))
        expect(new Set(album.map((m) => m.mediaGroupId)).size).toBe(1)
        expect(done.externalId).toBe(String(album[0]!.message_id))
        yield* network.publisher.publish(
          request(connection, {
            content: "About the album",
            replyTo: { rootId: done.externalId, parentId: done.externalId }
          })
        )
        expect(last().replyTo).toBe(album[0]!.message_id)
      })
    ))

  it("a poll asks the post's text; with a question of its own, the text goes first and the poll replies to it", () =>
    run(
      Effect.gen(function* () {
        const { network, connection } = yield* setup
        const poll = { options: ["Tea", "Coffee"], durationMinutes: 5 }
        yield* network.publisher.publish(request(connection, { content: "Tea or coffee?", poll }))
        expect(last()).toMatchObject({
          method: "sendPoll",
          poll: { question: "Tea or coffee?", options: ["Tea", "Coffee"], openPeriod: 300 }
        })
        expect(fake.calls("sendPoll").at(-1)!.body).toMatchObject({ is_anonymous: true })

        const req = request(connection, {
          content: "Our morning survey.",
          poll: { ...poll, question: "Which one?" }
        })
        const step = processingOf(yield* network.publisher.publish(req, yield* network.publisher.prepare(req)))
        const text = last()
        expect(text).toMatchObject({ method: "sendMessage", text: "Our morning survey." })
        expect(JSON.parse(step.handle)).toMatchObject({ stage: "poll", textId: text.message_id })
        // Flood control on the poll keeps the checkpoint: the text is never sent twice.
        fake.floodWait("sendPoll", 7)
        const wait = processingOf(yield* network.publisher.publish(req, step.handle))
        expect(wait).toEqual({ _tag: "Processing", handle: step.handle, checkAfterMs: 7000 })
        const polls = fake.calls("sendPoll").length
        expect(processingOf(yield* network.publisher.publish(req, wait.handle)).handle).toBe(step.handle)
        expect(fake.calls("sendPoll")).toHaveLength(polls)
        yield* TestClock.adjust(7000)
        const done = publishedOf(yield* network.publisher.publish(req, wait.handle))
        expect(fake.calls("sendMessage").filter((c) => (c.body as any).text === "Our morning survey.")).toHaveLength(1)
        expect(last()).toMatchObject({ method: "sendPoll", replyTo: text.message_id, poll: { question: "Which one?" } })
        expect(done.externalId).toBe(String(text.message_id))
      })
    ))

  it("flood control (429) is a rate limit for Telegram's retry_after; nothing was posted", () =>
    run(
      Effect.gen(function* () {
        const { network, connection } = yield* setup
        const before = fake.messages.length
        fake.floodWait("sendMessage", 35)
        const e = failureOf(yield* Effect.exit(network.publisher.publish(request(connection)))) as PublishError
        expect(e.reason._tag).toBe("RateLimited")
        expect(e.retryAfterMs).toBe(35_000)
        expect(e.retryable).toBe(true)
        expect(fake.messages.length).toBe(before)
        // Until the wait ends, nothing reaches Telegram for this chat; then the message goes.
        const calls = fake.calls("sendMessage").length
        yield* TestClock.adjust(34_000)
        const early = failureOf(yield* Effect.exit(network.publisher.publish(request(connection)))) as PublishError
        expect(early.retryAfterMs).toBe(1000)
        expect(fake.calls("sendMessage")).toHaveLength(calls)
        yield* TestClock.adjust(1000)
        publishedOf(yield* network.publisher.publish(request(connection)))
        expect(fake.calls("sendMessage")).toHaveLength(calls + 1)
      })
    ))

  it("a 400 is the target's error in Telegram's words; a caption too long is refused before any upload", () =>
    run(
      Effect.gen(function* () {
        const { network, blobs, connection } = yield* setup
        const e = failureOf(
          yield* Effect.exit(
            network.publisher.publish(request(connection, { content: "x", replyTo: { rootId: "1", parentId: "1" } }))
          )
        ) as PublishError
        expect(e.code).toBe("upstream_rejected")
        expect(e.message).toContain("Bad Request: message to be replied not found")
        const { media } = yield* Harness.upload(blobs, { type: "image", mimeType: "image/png", bytes: 100 })
        const calls = fake.calls("sendPhoto").length
        const long = failureOf(
          yield* Effect.exit(
            network.publisher.publish(request(connection, { content: "y".repeat(1025), media: [media] }))
          )
        ) as PublishError
        expect(long.code).toBe("upstream_rejected")
        expect(long.message).toContain("caption of up to 1024")
        expect(fake.calls("sendPhoto").length).toBe(calls)
      })
    ))

  it("a lost answer is an unknown outcome, and recovery says so (a bot cannot read the channel back)", () =>
    run(
      Effect.gen(function* () {
        const { network, connection } = yield* setup
        const req = request(connection, { content: "Lost" })
        const handle = yield* network.publisher.prepare(req)
        fake.log.script("POST", /\/sendMessage$/, { status: 200, dropAnswer: true })
        const e = failureOf(yield* Effect.exit(network.publisher.publish(req, handle))) as PublishError
        expect(e.reason._tag).toBe("OutcomeUnknown")
        expect(last().text).toBe("Lost")
        expect(yield* network.publisher.recover!(req, handle)).toEqual({ _tag: "Unknown" })
      })
    ))

  it("an ok answer naming no message is an unknown outcome, never a retry", () =>
    run(
      Effect.gen(function* () {
        const { network, blobs, connection } = yield* setup
        fake.log.script("POST", /\/sendMessage$/, { status: 200, body: { ok: true, result: {} } })
        const e = failureOf(yield* Effect.exit(network.publisher.publish(request(connection)))) as PublishError
        expect(e.reason._tag).toBe("OutcomeUnknown")
        const items = yield* Effect.forEach([0, 1], () =>
          Harness.upload(blobs, { type: "image", mimeType: "image/png", bytes: 50 })
        )
        fake.log.script("POST", /\/sendMediaGroup$/, { status: 200, body: { ok: true, result: [] } })
        const album = failureOf(
          yield* Effect.exit(network.publisher.publish(request(connection, { media: items.map((i) => i.media) })))
        ) as PublishError
        expect(album.reason._tag).toBe("OutcomeUnknown")
        expect(album.retryable).toBe(false)
      })
    ))

  it("a bot kicked from the channel (403) or a revoked token (401) needs reconnection", () =>
    run(
      Effect.gen(function* () {
        const kicked = fake.addBot(7003, "kicked_bot")
        const chat = fake.addChat({ id: -1002222, type: "channel", title: "Gone", username: "gone_chan" })
        fake.join(chat, kicked)
        const { network } = yield* telegramOn(fake)
        const [connection] = yield* connectWith(network, kicked, "@gone_chan")
        fake.kick(chat, kicked)
        const e = failureOf(yield* Effect.exit(network.publisher.publish(request(connection!)))) as PublishError
        expect(e.code).toBe("account_needs_reconnection")
        expect(e.reason._tag).toBe("Revoked")
        expect(e.message).toContain("Forbidden: bot was kicked from the channel chat")
        fake.revoke(kicked)
        const r = failureOf(yield* Effect.exit(network.publisher.publish(request(connection!)))) as PublishError
        expect(r.code).toBe("account_needs_reconnection")
        expect(r.message).toContain("Unauthorized")
      })
    ))

  it("a group upgraded to a supergroup (400 with migrate_to_chat_id) needs reconnection by its new id", () =>
    run(
      Effect.gen(function* () {
        const group = fake.addChat({ id: -4242, type: "group", title: "Old group" })
        fake.join(group, token, { status: "administrator" })
        const { network } = yield* telegramOn(fake)
        const [connection] = yield* connectWith(network, token, "-4242")
        group.migratedTo = -1004242
        const e = failureOf(yield* Effect.exit(network.publisher.publish(request(connection!)))) as PublishError
        expect(e.code).toBe("account_needs_reconnection")
        expect(e.message).toContain("-1004242")
      })
    ))

  it("counts text as Telegram does, in UTF-16 units: an emoji-heavy reply over 4096 is advised and refused before sending", () =>
    run(
      Effect.gen(function* () {
        const { network, connection } = yield* setup
        const emoji = "😀".repeat(2049)
        const advice = yield* network.publisher.advise!(request(connection).account, 0, {
          media: [],
          options: {},
          text: { content: "fine", thread: [emoji], firstComment: null }
        })
        expect(advice).toEqual([expect.stringContaining("up to 4096 characters, counted in UTF-16 units")])
        const calls = fake.calls("sendMessage").length
        const e = failureOf(
          yield* Effect.exit(network.publisher.publish(request(connection, { content: emoji })))
        ) as PublishError
        expect(e.code).toBe("upstream_rejected")
        expect(fake.calls("sendMessage").length).toBe(calls)
      })
    ))

  it("advises in a dry run what the Bot API would refuse: a long caption, a GIF in an album", () =>
    run(
      Effect.gen(function* () {
        const { network, blobs, connection } = yield* setup
        const account = request(connection).account
        const a = yield* Harness.upload(blobs, { type: "image", mimeType: "image/gif", bytes: 10 })
        const b = yield* Harness.upload(blobs, { type: "image", mimeType: "image/png", bytes: 10 })
        const advice = yield* network.publisher.advise!(account, 0, {
          media: [a.media, b.media],
          options: {},
          text: { content: "z".repeat(1500), thread: [], firstComment: null }
        })
        expect(advice.join(" ")).toContain("caption of up to 1024 characters")
        expect(advice.join(" ")).toContain("GIF in an album")
        expect(
          yield* network.publisher.advise!(account, 0, {
            media: [b.media],
            options: {},
            text: { content: "short", thread: [], firstComment: null }
          })
        ).toEqual([])
      })
    ))
})
