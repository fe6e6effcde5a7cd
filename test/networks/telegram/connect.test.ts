import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { HeraldError } from "../../../domain/errors.ts"
import { chatIdOf } from "../../../adapters/networks/telegram/TelegramConnector.ts"
import { type FakeBotApi, startFakeBotApi } from "./fakeBotApi.ts"
import { connectWith, failureOf, run, telegramOn } from "./support.ts"

let fake: FakeBotApi
let token = ""
beforeAll(async () => {
  fake = await startFakeBotApi()
  token = fake.addBot(7001, "herald_test_bot")
  fake.join(fake.addChat({ id: -1001234567890, type: "channel", title: "Herald News", username: "herald_news" }), token)
  fake.join(fake.addChat({ id: -1009876543210, type: "channel", title: "Private Notes" }), token)
  fake.join(fake.addChat({ id: -1005555, type: "supergroup", title: "Readers", username: "herald_readers" }), token, {
    status: "administrator"
  })
  fake.join(fake.addChat({ id: -1006666, type: "channel", title: "Read only", username: "read_only" }), token, {
    status: "administrator",
    can_post_messages: false
  })
  fake.join(fake.addChat({ id: -1007777, type: "supergroup", title: "Member", username: "just_member" }), token, {
    status: "member"
  })
})
afterAll(() => fake?.close())

const refusal = (botToken: string, chat: string) =>
  run(
    Effect.gen(function* () {
      const { network } = yield* telegramOn(fake)
      return failureOf(yield* Effect.exit(connectWith(network, botToken, chat))) as HeraldError
    })
  )

describe("Telegram connector", () => {
  it("connects a public channel: getMe, getChat, getChatMember; the account is the chat, the token its credential", () =>
    run(
      Effect.gen(function* () {
        const { network } = yield* telegramOn(fake)
        const begun = yield* network.connector.begin({
          state: "s t",
          callbackUrl: "",
          formUrl: "http://herald.test/connect/telegram/form"
        })
        expect(begun.url).toBe("http://herald.test/connect/telegram/form?state=s%20t")
        const before = fake.log.requests.length
        const [connection] = yield* connectWith(network, ` ${token} `, "https://t.me/herald_news")
        expect(connection!.profile).toEqual({
          externalId: "-1001234567890",
          name: "Herald News",
          username: "@herald_news",
          avatarUrl: null
        })
        expect(connection!.credentials).toEqual({
          accessToken: token,
          refreshToken: null,
          expiresAt: null,
          extra: { chatId: "-1001234567890", chatType: "channel", botId: "7001", chatUsername: "herald_news" }
        })
        const calls = fake.log.requests.slice(before)
        expect(calls.map((c) => c.path.split("/").at(-1))).toEqual(["getMe", "getChat", "getChatMember"])
        expect(calls[1]!.body).toMatchObject({ chat_id: "@herald_news" })
        expect(calls[2]!.body).toMatchObject({ chat_id: "@herald_news", user_id: 7001 })
      })
    ))

  it("a private channel by its numeric id is named by the id; a supergroup's administrator may post", () =>
    run(
      Effect.gen(function* () {
        const { network } = yield* telegramOn(fake)
        const [priv] = yield* connectWith(network, token, "-1009876543210")
        expect(priv!.profile).toMatchObject({ name: "Private Notes", username: "-1009876543210" })
        const [group] = yield* connectWith(network, token, "@herald_readers")
        expect(group!.profile).toMatchObject({ externalId: "-1005555", username: "@herald_readers" })
      })
    ))

  it("refuses a revoked or unknown token on the token's field, with Telegram's words", async () => {
    const e = await refusal(`9999:${"A".repeat(35)}`, "@herald_news")
    expect(e.code).toBe("validation_failed")
    expect(e.details).toEqual({ fields: ["botToken"] })
    expect(e.detail).toContain("Unauthorized")
  })

  it("refuses what is not a token or not a chat before calling Telegram", async () => {
    const before = fake.log.requests.length
    expect((await refusal("not-a-token", "@herald_news")).details).toEqual({ fields: ["botToken"] })
    expect((await refusal(token, "no spaces allowed")).details).toEqual({ fields: ["chat"] })
    expect((await refusal("", "")).details).toEqual({ fields: ["botToken", "chat"] })
    expect(fake.log.requests.length).toBe(before)
  })

  it("refuses a chat the bot cannot see, or where it may not post", async () => {
    const unknown = await refusal(token, "@nowhere_chat")
    expect(unknown.details).toEqual({ fields: ["chat"] })
    expect(unknown.detail).toContain("chat not found")
    expect((await refusal(token, "@read_only")).detail).toContain('"Post messages" right')
    expect((await refusal(token, "@just_member")).detail).toContain("not an administrator")
  })

  it("flood control while connecting is upstream's, with Telegram's wait", async () => {
    fake.floodWait("getMe", 12)
    const e = await refusal(token, "@herald_news")
    expect(e.code).toBe("upstream_unavailable")
    expect(e.details).toMatchObject({ retryAfterSeconds: 12 })
  })

  it("reads chats as people name them", () => {
    expect(chatIdOf("@Herald_News")).toBe("@Herald_News")
    expect(chatIdOf("herald_news")).toBe("@herald_news")
    expect(chatIdOf("t.me/herald_news")).toBe("@herald_news")
    expect(chatIdOf("-1001234")).toBe("-1001234")
    expect(chatIdOf("@ab")).toBeNull()
    expect(chatIdOf("https://example.com/x")).toBeNull()
  })

  it("the token never appears in a refusal", async () => {
    fake.log.script("POST", /\/getChat$/, { status: 502, body: "Bad Gateway" })
    const e = await refusal(token, "@herald_news")
    expect(e.code).toBe("upstream_unavailable")
    expect(JSON.stringify({ ...e, message: e.message })).not.toContain(token.split(":")[1])
  })
})
