import { ConfigProvider, Effect, Exit, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import type { Connection, NetworkCredentials } from "../../../application/ports/Connectors.ts"
import type { Network } from "../../../application/ports/Network.ts"
import type { PublishRequest } from "../../../application/ports/Publishers.ts"
import type { DiscordSettings } from "../../../adapters/networks/discord/config.ts"
import { makeConnector } from "../../../adapters/networks/discord/DiscordConnector.ts"
import { makePublisher } from "../../../adapters/networks/discord/DiscordPublisher.ts"
import * as Outbound from "../../../adapters/outbound/client.ts"
import { makeRateGate } from "../../../adapters/networks/shared/rateGate.ts"
import * as Discord from "../../../adapters/networks/discord/index.ts"
import * as HmacFileLinks from "../../../adapters/crypto/HmacFileLinks.ts"
import * as MemoryBlobStore from "../../../adapters/memory/MemoryBlobStore.ts"
import { enable } from "../../../hosts/networks.ts"
import * as Harness from "../shared/harness.ts"
import { type FakeDiscord, startFakeDiscord } from "./fakeDiscord.ts"

let fake: FakeDiscord
let settings: DiscordSettings
beforeAll(async () => {
  fake = await startFakeDiscord()
  settings = { apiUrl: fake.apiUrl, maxUploadBytes: 25 * 1024 * 1024, timeoutMs: 5_000 }
})
afterAll(() => fake?.close())
beforeEach(() => {
  fake.resetBuckets()
  fake.state.bucketSize = 50
})

const run = <A, E>(effect: Effect.Effect<A, E>) =>
  Effect.runPromise(
    effect.pipe(Effect.provide([TestClock.layer(), Outbound.layer({ allowLoopback: true })])) as Effect.Effect<A, E>
  )

/** The network over a memory blob store, one rate gate shared by its connector and publisher (as adapter.ts builds it). */
const discordOn = (overrides: Partial<DiscordSettings> = {}) =>
  Effect.gen(function* () {
    yield* TestClock.setTime(Harness.T0)
    const gate = makeRateGate()
    const s = { ...settings, ...overrides }
    const { network, blobs } = yield* Harness.onMemoryBlobs(
      (b): Network => ({
        platform: "discord",
        connector: makeConnector(s, gate),
        publisher: makePublisher({ settings: s, blobs: b, gate })
      })
    )
    return { network, blobs }
  })

const connect = (network: Network, webhookUrl: string) =>
  network.connector.complete({ params: { state: "s", webhookUrl }, callbackUrl: "", verifier: null })

const request = (connection: Connection, fields: Partial<PublishRequest> = {}): PublishRequest =>
  Harness.publishRequest(
    Harness.accountOf("discord", "acc_d1", connection),
    connection.credentials as NetworkCredentials,
    fields
  )

const failureOf = <E>(exit: Exit.Exit<unknown, E>): E => {
  if (Exit.isSuccess(exit)) throw new Error("expected a failure")
  const reason = exit.cause.reasons.find((r) => r._tag === "Fail")
  if (reason === undefined || reason._tag !== "Fail") throw new Error(`not a failure: ${JSON.stringify(exit.cause)}`)
  return reason.error
}

/** A connected channel on a fresh webhook (a forum's when asked). */
const setup = (forum = false) =>
  Effect.gen(function* () {
    const { network, blobs } = yield* discordOn()
    const hook = fake.addWebhook({ forum, name: forum ? "Forum feed" : "Herald news" })
    const [connection] = yield* connect(network, hook.url)
    return { network, blobs, hook, connection: connection! }
  })

describe("Discord's settings", () => {
  const networkWith = (env: Record<string, string>) =>
    enable(Discord.network).pipe(
      Effect.provide(MemoryBlobStore.layer("http://herald.test").pipe(Layer.provide(HmacFileLinks.layer("secret")))),
      Effect.provide(ConfigProvider.layer(ConfigProvider.fromEnv({ env })))
    )

  it("offered unless DISCORD_ENABLED=false; webhooks only on DISCORD_API_URL", () =>
    run(
      Effect.gen(function* () {
        expect(Option.isNone(yield* networkWith({ DISCORD_ENABLED: "false" }))).toBe(true)
        const offered = Option.getOrThrow(yield* networkWith({ DISCORD_API_URL: `${fake.apiUrl}/` }))
        expect(offered.platform).toBe("discord")
        const hook = fake.addWebhook()
        const [connection] = yield* offered.connector.complete({
          params: { state: "s", webhookUrl: hook.url },
          callbackUrl: "",
          verifier: null
        })
        expect(connection!.profile.externalId).toBe(hook.channelId)
        const byDefault = Option.getOrThrow(yield* networkWith({}))
        const refused = failureOf(
          yield* Effect.exit(
            byDefault.connector.complete({
              params: { state: "s", webhookUrl: hook.url },
              callbackUrl: "",
              verifier: null
            })
          )
        )
        expect(refused.code).toBe("validation_failed")
      })
    ))
})

describe("Discord connector", () => {
  it("reads a pasted webhook and keeps its URL as the channel's credentials", () =>
    run(
      Effect.gen(function* () {
        const { hook, connection } = yield* setup()
        expect(fake.calls("GET", `/api/webhooks/${hook.id}/${hook.token}`)).toHaveLength(1)
        expect(connection.profile).toEqual({
          externalId: hook.channelId,
          name: "Herald news",
          username: hook.channelId,
          avatarUrl: null
        })
        expect(connection.credentials).toEqual({
          accessToken: hook.url,
          refreshToken: null,
          expiresAt: null,
          extra: { webhookId: hook.id, channelId: hook.channelId, guildId: hook.guildId }
        })
      })
    ))

  it("takes a versioned URL with a trailing slash as the same webhook", () =>
    run(
      Effect.gen(function* () {
        const { network } = yield* discordOn()
        const hook = fake.addWebhook()
        const [c] = yield* connect(network, ` ${fake.apiUrl}/v10/webhooks/${hook.id}/${hook.token}/ `)
        expect(c!.credentials!.accessToken).toBe(hook.url)
      })
    ))

  it("on the default API, takes Discord's other clients' hosts as discord.com's and calls none of them", async () => {
    const { parseWebhook } = await import("../../../adapters/networks/discord/webhook.ts")
    const api = "https://discord.com/api"
    for (const host of ["ptb.discord.com", "canary.discord.com", "discordapp.com"])
      expect(parseWebhook(`https://${host}/api/webhooks/123/abc_DEF-1`, api)).toEqual({
        id: "123",
        url: "https://discord.com/api/webhooks/123/abc_DEF-1"
      })
    for (const url of [
      "http://discord.com/api/webhooks/123/abc",
      "https://discord.com.evil.example/api/webhooks/123/abc",
      "https://user:pw@discord.com/api/webhooks/123/abc",
      "https://discord.com/api/webhooks/123/abc/messages/1",
      "https://discord.com/api/webhooks/abc/abc"
    ])
      expect(parseWebhook(url, api), url).toBeNull()
    // An operator's own API (a proxy, a test stand-in) takes no aliases.
    expect(parseWebhook("https://ptb.discord.com/api/webhooks/1/a", "https://proxy.example/api")).toBeNull()
  })

  it("refuses a URL on another host or path without calling it", () =>
    run(
      Effect.gen(function* () {
        const { network } = yield* discordOn()
        const hook = fake.addWebhook()
        const before = fake.requests.length
        for (const url of [
          `http://127.0.0.2:1/api/webhooks/${hook.id}/${hook.token}`,
          `${fake.origin}/other/webhooks/${hook.id}/${hook.token}`,
          `${fake.apiUrl}/webhooks/${hook.id}`,
          `${fake.apiUrl}/channels/${hook.id}/messages`,
          "not a url",
          ""
        ]) {
          const error = failureOf(yield* Effect.exit(connect(network, url)))
          expect(error.code).toBe("validation_failed")
          expect(error.details).toEqual({ fields: ["webhookUrl"] })
        }
        expect(fake.requests.length).toBe(before)
      })
    ))

  it("refuses a deleted webhook and a reset token with Discord's word", () =>
    run(
      Effect.gen(function* () {
        const { network } = yield* discordOn()
        const hook = fake.addWebhook()
        fake.state.webhooks.delete(hook.id)
        const gone = failureOf(yield* Effect.exit(connect(network, hook.url)))
        expect(gone.code).toBe("validation_failed")
        expect(gone.detail).toContain("Unknown Webhook")
        const other = fake.addWebhook()
        const reset = failureOf(yield* Effect.exit(connect(network, `${fake.apiUrl}/webhooks/${other.id}/wrong`)))
        expect(reset.detail).toContain("Invalid Webhook Token")
      })
    ))
})

describe("Discord publisher", () => {
  it("posts text with wait=true and no mentions parsed, and links the message", () =>
    run(
      Effect.gen(function* () {
        const { network, hook, connection } = yield* setup()
        const out = Harness.publishedOf(
          yield* network.publisher.publish(request(connection, { content: "Hello @everyone" }))
        )
        const [call] = fake.calls("POST", `/api/webhooks/${hook.id}/${hook.token}`)
        expect(call!.query).toEqual({ wait: "true" })
        expect((call!.body as { body: unknown }).body).toEqual({
          content: "Hello @everyone",
          allowed_mentions: { parse: [] }
        })
        const [channel, id] = out.externalId.split("/")
        expect(channel).toBe(hook.channelId)
        expect(fake.state.messages.get(id!)?.content).toBe("Hello @everyone")
        expect(out.url).toBe(`https://discord.com/channels/${hook.guildId}/${hook.channelId}/${id}`)
      })
    ))

  it("sends attachments as files[n] beside payload_json, bytes intact", () =>
    run(
      Effect.gen(function* () {
        const { network, blobs, hook, connection } = yield* setup()
        const a = yield* Harness.upload(blobs, { type: "image", mimeType: "image/png", bytes: 3000 })
        const b = yield* Harness.upload(blobs, { type: "video", mimeType: "video/mp4", bytes: 5000 })
        const out = Harness.publishedOf(
          yield* network.publisher.publish(request(connection, { media: [a.media, b.media] }))
        )
        const message = fake.state.messages.get(out.externalId.split("/")[1]!)!
        expect(message.files).toEqual([
          { field: "files[0]", filename: a.media.filename, sha256: a.sha256 },
          { field: "files[1]", filename: b.media.filename, sha256: b.sha256 }
        ])
        const [call] = fake.calls("POST", `/api/webhooks/${hook.id}/${hook.token}`)
        expect((call!.body as { body: { attachments: unknown } }).body.attachments).toEqual([
          { id: 0, filename: a.media.filename },
          { id: 1, filename: b.media.filename }
        ])
      })
    ))

  it("refuses attachments over the upload limit before sending", () =>
    run(
      Effect.gen(function* () {
        const { network: small } = yield* discordOn({ maxUploadBytes: 4000 })
        const hook = fake.addWebhook()
        const [connection] = yield* connect(small, hook.url)
        const { blobs } = yield* Harness.onMemoryBlobs(() => null)
        const a = yield* Harness.upload(blobs, { type: "image", mimeType: "image/png", bytes: 5000 })
        const error = failureOf(yield* Effect.exit(small.publisher.publish(request(connection!, { media: [a.media] }))))
        expect(error.code).toBe("upstream_rejected")
        expect(fake.calls("POST", `/api/webhooks/${hook.id}/${hook.token}`)).toHaveLength(0)
      })
    ))

  it("starts a forum post with discord.threadName; its thread and first comment go there with thread_id", () =>
    run(
      Effect.gen(function* () {
        const { network, hook, connection } = yield* setup(true)
        const root = Harness.publishedOf(
          yield* network.publisher.publish(
            request(connection, { content: "Release notes", options: { discord: { threadName: "v2.0 is out" } } })
          )
        )
        const [thread, starter] = root.externalId.split("/")
        expect(thread).toBe(starter)
        expect(thread).not.toBe(hook.channelId)
        expect(fake.state.messages.get(starter!)?.threadName).toBe("v2.0 is out")
        const replyTo = { rootId: root.externalId, parentId: root.externalId }
        const reply = Harness.publishedOf(
          yield* network.publisher.publish(request(connection, { content: "Details", replyTo }))
        )
        const comment = Harness.publishedOf(
          yield* network.publisher.publish(request(connection, { content: "Discuss here", replyTo }))
        )
        for (const out of [reply, comment]) expect(out.externalId.startsWith(`${thread}/`)).toBe(true)
        const calls = fake.calls("POST", `/api/webhooks/${hook.id}/${hook.token}`)
        expect(calls.map((c) => c.query.thread_id ?? null)).toEqual([null, thread, thread])
        expect((calls[1]!.body as { body: { thread_name?: string } }).body.thread_name).toBeUndefined()
      })
    ))

  it("gives Discord's own refusal when a forum post has no title", () =>
    run(
      Effect.gen(function* () {
        const { network, connection } = yield* setup(true)
        const error = failureOf(yield* Effect.exit(network.publisher.publish(request(connection))))
        expect(error.code).toBe("upstream_rejected")
        expect(error.message).toContain("must have a thread_name or thread_id")
        expect(error.retryable).toBe(false)
      })
    ))

  it("follow-ups in a plain channel are further messages there", () =>
    run(
      Effect.gen(function* () {
        const { network, hook, connection } = yield* setup()
        const root = Harness.publishedOf(yield* network.publisher.publish(request(connection)))
        const reply = Harness.publishedOf(
          yield* network.publisher.publish(
            request(connection, { content: "More", replyTo: { rootId: root.externalId, parentId: root.externalId } })
          )
        )
        expect(reply.externalId.split("/")[0]).toBe(hook.channelId)
        expect(fake.calls("POST", `/api/webhooks/${hook.id}/${hook.token}`)[1]!.query).toEqual({ wait: "true" })
      })
    ))

  it("sends a poll with its question, answers and duration in hours", () =>
    run(
      Effect.gen(function* () {
        const { network, connection } = yield* setup()
        const out = Harness.publishedOf(
          yield* network.publisher.publish(
            request(connection, {
              content: "Vote!",
              poll: { question: "Lunch?", options: ["Pizza", "Soup"], durationMinutes: 1440 }
            })
          )
        )
        expect(fake.state.messages.get(out.externalId.split("/")[1]!)?.poll).toEqual({
          question: { text: "Lunch?" },
          answers: [{ poll_media: { text: "Pizza" } }, { poll_media: { text: "Soup" } }],
          duration: 24,
          allow_multiselect: false
        })
      })
    ))

  it("a poll without a question asks the post's first line", () =>
    run(
      Effect.gen(function* () {
        const { network, connection } = yield* setup()
        const poll = { options: ["Yes", "No"], durationMinutes: 240 }
        const out = Harness.publishedOf(
          yield* network.publisher.publish(request(connection, { content: "\nShip it today?\nDetails below.", poll }))
        )
        expect(fake.state.messages.get(out.externalId.split("/")[1]!)?.poll).toMatchObject({
          question: { text: "Ship it today?" },
          duration: 4
        })
      })
    ))

  it("refuses a poll with attachments before sending (Discord takes none on a poll)", () =>
    run(
      Effect.gen(function* () {
        const { network, blobs, hook, connection } = yield* setup()
        const a = yield* Harness.upload(blobs, { type: "image", mimeType: "image/png", bytes: 100 })
        const poll = { options: ["A", "B"], durationMinutes: 60 }
        const error = failureOf(
          yield* Effect.exit(network.publisher.publish(request(connection, { poll, media: [a.media] })))
        )
        expect(error.code).toBe("upstream_rejected")
        expect(fake.calls("POST", `/api/webhooks/${hook.id}/${hook.token}`)).toHaveLength(0)
      })
    ))

  it("a 429 is rate_limited for retry_after, and the webhook's bucket stays closed meanwhile", () =>
    run(
      Effect.gen(function* () {
        const { network, hook, connection } = yield* setup()
        const path = `/api/webhooks/${hook.id}/${hook.token}`
        fake.script("POST", path, {
          status: 429,
          body: { message: "You are being rate limited.", retry_after: 1.5, global: false },
          headers: { "retry-after": "2", "x-ratelimit-remaining": "0", "x-ratelimit-reset-after": "1.500" }
        })
        const first = failureOf(yield* Effect.exit(network.publisher.publish(request(connection))))
        expect(first.code).toBe("rate_limited")
        expect(first.retryAfterMs).toBe(1500)
        const before = fake.calls("POST", path).length
        const second = failureOf(yield* Effect.exit(network.publisher.publish(request(connection))))
        expect(second.code).toBe("rate_limited")
        expect(fake.calls("POST", path).length).toBe(before)
        yield* TestClock.adjust(1500)
        Harness.publishedOf(yield* network.publisher.publish(request(connection)))
      })
    ))

  it("a global 429 holds every webhook; a webhook's own holds only it", () =>
    run(
      Effect.gen(function* () {
        const { network } = yield* discordOn()
        const a = fake.addWebhook()
        const b = fake.addWebhook()
        const [ca] = yield* connect(network, a.url)
        const [cb] = yield* connect(network, b.url)
        fake.script("POST", `/api/webhooks/${a.id}/${a.token}`, {
          status: 429,
          body: { message: "You are being rate limited.", retry_after: 0.5, global: false }
        })
        expect(failureOf(yield* Effect.exit(network.publisher.publish(request(ca!)))).code).toBe("rate_limited")
        Harness.publishedOf(yield* network.publisher.publish(request(cb!)))
        fake.script("POST", `/api/webhooks/${b.id}/${b.token}`, {
          status: 429,
          body: { message: "You are being rate limited.", retry_after: 3, global: true },
          headers: { "x-ratelimit-global": "true", "x-ratelimit-scope": "global" }
        })
        expect(failureOf(yield* Effect.exit(network.publisher.publish(request(cb!)))).code).toBe("rate_limited")
        yield* TestClock.adjust(1000)
        const held = failureOf(yield* Effect.exit(network.publisher.publish(request(ca!))))
        expect(held.retryAfterMs).toBe(2000)
        expect(fake.calls("POST", `/api/webhooks/${a.id}/${a.token}`)).toHaveLength(1)
      })
    ))

  it("a spent bucket (X-RateLimit-Remaining 0) waits Reset-After before the next call", () =>
    run(
      Effect.gen(function* () {
        const { network, hook, connection } = yield* setup()
        fake.state.bucketSize = 2 // the connect's GET took one
        Harness.publishedOf(yield* network.publisher.publish(request(connection)))
        const error = failureOf(yield* Effect.exit(network.publisher.publish(request(connection))))
        expect(error.code).toBe("rate_limited")
        expect(error.retryAfterMs).toBe(2000)
        expect(fake.calls("POST", `/api/webhooks/${hook.id}/${hook.token}`)).toHaveLength(1)
      })
    ))

  it("a deleted webhook needs reconnection", () =>
    run(
      Effect.gen(function* () {
        const { network, hook, connection } = yield* setup()
        fake.state.webhooks.delete(hook.id)
        const error = failureOf(yield* Effect.exit(network.publisher.publish(request(connection))))
        expect(error.code).toBe("account_needs_reconnection")
        expect(error.message).toContain("Unknown Webhook")
      })
    ))

  it("a 400 is the target's error with Discord's message", () =>
    run(
      Effect.gen(function* () {
        const { network, connection } = yield* setup()
        const error = failureOf(
          yield* Effect.exit(network.publisher.publish(request(connection, { content: "x".repeat(2001) })))
        )
        expect(error.code).toBe("upstream_rejected")
        expect(error.message).toContain("Invalid Form Body (code 50035): content: Must be 2000 or fewer in length.")
      })
    ))

  it("a 500 on the create is an unknown outcome; a 503 is Discord unavailable, to try again", () =>
    run(
      Effect.gen(function* () {
        const { network, hook, connection } = yield* setup()
        const path = `/api/webhooks/${hook.id}/${hook.token}`
        fake.script("POST", path, { status: 500, body: { message: "500: Internal Server Error", code: 0 } })
        const unknown = failureOf(yield* Effect.exit(network.publisher.publish(request(connection))))
        expect(unknown.reason._tag).toBe("OutcomeUnknown")
        fake.script("POST", path, { status: 503, body: { message: "upstream connect error", code: 0 } })
        const down = failureOf(yield* Effect.exit(network.publisher.publish(request(connection))))
        expect(down.reason._tag).toBe("Unavailable")
        expect(down.retryable).toBe(true)
      })
    ))

  it("a lost answer is an unknown outcome, never a blind retry", () =>
    run(
      Effect.gen(function* () {
        const { network, hook, connection } = yield* setup()
        fake.script("POST", `/api/webhooks/${hook.id}/${hook.token}`, { status: 200, dropAnswer: true })
        const handle = yield* network.publisher.prepare(request(connection))
        const error = failureOf(yield* Effect.exit(network.publisher.publish(request(connection), handle)))
        expect(error.reason._tag).toBe("OutcomeUnknown")
        expect(error.retryable).toBe(false)
        expect(network.publisher.recover).toBeUndefined()
      })
    ))

  it("takes down a message, in the channel or a forum thread; one already gone counts as removed", () =>
    run(
      Effect.gen(function* () {
        for (const forum of [false, true]) {
          const { network, connection } = yield* setup(forum)
          const options = forum ? { discord: { threadName: "Title" } } : undefined
          const out = Harness.publishedOf(yield* network.publisher.publish(request(connection, { options })))
          const unpublish = network.publisher.unpublish!
          const account = Harness.accountOf("discord", "acc_d1", connection)
          const req = {
            account,
            credentials: connection.credentials,
            externalId: out.externalId,
            kind: "post" as const
          }
          yield* unpublish(req)
          const id = out.externalId.split("/")[1]!
          expect(fake.state.messages.has(id)).toBe(false)
          yield* unpublish(req)
        }
      })
    ))

  it("a take-down of a message whose thread is gone is done; through a deleted webhook it needs reconnection", () =>
    run(
      Effect.gen(function* () {
        const { network, hook, connection } = yield* setup()
        const out = Harness.publishedOf(yield* network.publisher.publish(request(connection)))
        const account = Harness.accountOf("discord", "acc_d1", connection)
        const req = { account, credentials: connection.credentials, externalId: out.externalId, kind: "post" as const }
        const path = new RegExp(`^/api/webhooks/${hook.id}/${hook.token}/messages/`)
        fake.script("DELETE", path, { status: 404, body: { message: "Unknown Channel", code: 10003 } })
        yield* network.publisher.unpublish!(req)
        fake.state.webhooks.delete(hook.id)
        const error = failureOf(yield* Effect.exit(network.publisher.unpublish!(req)))
        expect(error.code).toBe("account_needs_reconnection")
      })
    ))

  it("advises on forum titles and mentions in the dry run", () =>
    run(
      Effect.gen(function* () {
        const { network, connection } = yield* setup()
        const account = Harness.accountOf("discord", "acc_d1", connection)
        const plain = yield* network.publisher.advise!(account, Harness.T0, { media: [], options: {} })
        expect(plain.join(" ")).toContain("discord.threadName")
        const titled = yield* network.publisher.advise!(account, Harness.T0, {
          media: [],
          options: { discord: { threadName: "T" } }
        })
        expect(titled.join(" ")).not.toContain("discord.threadName")
      })
    ))
})
