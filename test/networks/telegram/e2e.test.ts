import { Effect, Option } from "effect"
import { TestClock } from "effect/testing"
import sharp from "sharp"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { NetworkCredentials } from "../../../application/ports/Connectors.ts"
import { CredentialStore } from "../../../application/ports/CredentialStore.ts"
import { TokenVault } from "../../../application/ports/TokenVault.ts"
import { defaultPipelineOptions } from "../../../application/usecases/publishing/options.ts"
import { publishDueTargets } from "../../../application/usecases/publishing/worker.ts"
import { continueConnectLink } from "../../support/connectLink.ts"
import { claim, signUp } from "../../support/flows.ts"
import { call, type HttpHost, startHttpHost } from "../../support/httpHost.ts"
import { type FakeBotApi, type FakeChat, startFakeBotApi } from "./fakeBotApi.ts"

/**
 * Telegram end to end: the real HTTP host (in memory, and on PostgreSQL) connecting a channel on
 * Herald's form against the Bot API stand-in (TELEGRAM_API_URL), and the publishing pipeline driven
 * one pass at a time on a clock the test moves.
 */
let fake: FakeBotApi
let png: Buffer
beforeAll(async () => {
  fake = await startFakeBotApi()
  png = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#246" } })
    .png()
    .toBuffer()
  // Effect's default ConfigProvider copies the environment at its first use.
  process.env.TELEGRAM_ENABLED = "true"
  process.env.TELEGRAM_API_URL = fake.origin
})
afterAll(() => fake?.close())

describe.each([
  { backend: "memory", botId: 8001, chatId: -1003001, username: "herald_mem" },
  { backend: "postgres", botId: 8002, chatId: -1003002, username: "herald_pg" }
])("Telegram end to end on the $backend host", ({ backend, botId, chatId, username }) => {
  let host: HttpHost
  let ahead = 0
  let key = ""
  let accountId = ""
  let token = ""
  let chat: FakeChat
  let publicOrigin = ""

  beforeAll(async () => {
    if (backend === "postgres") process.env.HERALD_TEST_BACKEND = "postgres"
    else delete process.env.HERALD_TEST_BACKEND
    token = fake.addBot(botId, `${username}_bot`)
    chat = fake.addChat({ id: chatId, type: "channel", title: `Herald ${backend}`, username })
    fake.join(chat, token)
    host = await startHttpHost()
    const { email } = await signUp(host)
    const { cookie, csrf } = await claim(host, email)
    const created = await call(host, "POST", "/keys", {
      cookie,
      headers: { "x-csrf-token": csrf },
      body: { name: "Telegram agent", requireApproval: false }
    })
    key = created.body.apiKey
  }, 60_000)
  afterAll(() => host?.close())

  const later = (ms: number) => {
    ahead += ms
  }
  const pass = () =>
    host.run(
      Effect.gen(function* () {
        yield* TestClock.setTime(Date.now() + ahead)
        return yield* publishDueTargets(defaultPipelineOptions, 50)
      }).pipe(Effect.provide(TestClock.layer()))
    )
  const passes = async (max = 10) => {
    for (let i = 0; i < max; i++) if ((await pass()) === 0) return
  }

  /** GET /connect/telegram, Herald's start page continued in the browser, then the form sent. */
  const openForm = async () => {
    const link = await call(host, "GET", "/connect/telegram", { key })
    expect(link.status, JSON.stringify(link.body)).toBe(200)
    const { next, cookie } = await continueConnectLink(host.local(link.body.url))
    const url = host.local(next)
    expect(new URL(url).pathname).toBe("/connect/telegram/form")
    // The form is sent from Herald's page at its public origin.
    publicOrigin = new URL(link.body.url).origin
    return { url, state: new URL(url).searchParams.get("state")!, cookie }
  }
  const sendForm = (fields: Record<string, string>, cookie: string) =>
    fetch(`${host.origin}/connect/telegram/callback`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        accept: "application/json",
        origin: publicOrigin,
        cookie
      },
      body: new URLSearchParams(fields)
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }))
  const connect = async () => {
    const { state, cookie } = await openForm()
    const sent = await sendForm({ state, botToken: token, chat: `@${username}` }, cookie)
    expect(sent.status, JSON.stringify(sent.body)).toBe(200)
    return sent.body.account as { id: string; platform: string; username: string; name: string; status: string }
  }
  const post = async (body: Record<string, unknown>) => {
    const reply = await call(host, "POST", "/posts", { key, body: { accountIds: [accountId], ...body } })
    expect(reply.status, JSON.stringify(reply.body)).toBe(201)
    return reply.body.post.id as string
  }
  const view = async (id: string) => (await call(host, "GET", `/posts/${id}`, { key })).body.post

  it("connects a channel on Herald's form: the bot's token and the chat; the token sealed", async () => {
    const { url, cookie } = await openForm()
    // The form opens only in the browser that continued the link.
    expect((await fetch(url)).status).toBe(400)
    const page = await fetch(url, { headers: { cookie } })
    const html = await page.text()
    expect(page.status).toBe(200)
    expect(html).toContain('name="botToken" type="password"')
    expect(html).toContain('name="chat" type="text"')
    expect(html).toContain("https://t.me/BotFather")
    const account = await connect()
    expect(account).toMatchObject({
      platform: "telegram",
      username: `@${username}`,
      name: `Herald ${backend}`,
      status: "connected"
    })
    accountId = account.id
    expect((await connect()).id).toBe(accountId)
    const sealed = await host.run(
      Effect.gen(function* () {
        const s = Option.getOrThrow(yield* (yield* CredentialStore).get(accountId)).sealed
        return { s, open: JSON.parse(yield* (yield* TokenVault).open(s)) as NetworkCredentials }
      })
    )
    expect(sealed.s).not.toContain(token.split(":")[1])
    expect(sealed.open).toMatchObject({ accessToken: token, extra: { chatId: String(chatId) } })
  })

  it("a token Telegram refuses, or a chat the bot may not post to, is named on the form with Telegram's reason", async () => {
    const { state, cookie } = await openForm()
    const wrong = await sendForm({ state, botToken: `${botId}:${"B".repeat(35)}`, chat: `@${username}` }, cookie)
    expect(wrong.status).toBe(400)
    expect(wrong.body.error).toMatchObject({ code: "validation_failed", details: { fields: ["botToken"] } })
    expect(wrong.body.error.message).toContain("Unauthorized")
    const other = fake.addChat({ id: chatId - 50, type: "channel", title: "Not ours", username: `${username}_x` })
    fake.join(other, token, { status: "member" })
    const notAdmin = await sendForm({ state, botToken: token, chat: `@${username}_x` }, cookie)
    expect(notAdmin.status).toBe(400)
    expect(notAdmin.body.error.details.fields).toEqual(["chat"])
    expect(notAdmin.body.error.message).toContain("not an administrator")
  })

  it("publishes an image with its caption, a thread and a first comment, as replies", async () => {
    const form = new FormData()
    form.append("file", new Blob([png], { type: "image/png" }), "a.png")
    const uploaded = await fetch(`${host.base}/media`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}` },
      body: form
    })
    expect(uploaded.status).toBe(201)
    const mediaId = ((await uploaded.json()) as any).media.id
    const before = fake.messages.length
    const id = await post({
      content: "Thread start",
      mediaIds: [mediaId],
      thread: ["Second"],
      firstComment: "Comment below"
    })
    await passes()
    // The first comment follows a minute after its post.
    later(60_000)
    await passes()
    const published = await view(id)
    expect(published.status, JSON.stringify(published)).toBe("published")
    const [root, second, comment] = fake.messages.slice(before)
    expect(root).toMatchObject({ method: "sendPhoto", caption: "Thread start", chatId })
    expect(root!.files[0]).toMatchObject({ type: "image/png", bytes: png.length })
    expect(second).toMatchObject({ method: "sendMessage", text: "Second", replyTo: root!.message_id })
    expect(comment).toMatchObject({ text: "Comment below", replyTo: root!.message_id })
    expect(published.targets[0]).toMatchObject({
      externalId: String(root!.message_id),
      url: `https://t.me/${username}/${root!.message_id}`
    })
  })

  it("publishes a poll that closes after its minutes", async () => {
    const id = await post({ content: "Which one?", poll: { options: ["This", "That"], durationMinutes: 10 } })
    await passes()
    expect((await view(id)).status).toBe("published")
    expect(fake.messages.at(-1)).toMatchObject({
      method: "sendPoll",
      poll: { question: "Which one?", options: ["This", "That"], openPeriod: 600 }
    })
    // Longer than a bot's poll may stay open: refused at create, with the field named.
    const long = await call(host, "POST", "/posts", {
      key,
      body: { accountIds: [accountId], content: "Q?", poll: { options: ["a", "b"], durationMinutes: 60 } }
    })
    expect(long.status).toBe(400)
    expect(long.body.error.details.fields).toEqual(["poll.durationMinutes"])
  })

  it("a dry run says a caption with media is over Telegram's 1024", async () => {
    const form = new FormData()
    form.append("file", new Blob([png], { type: "image/png" }), "b.png")
    const uploaded = await fetch(`${host.base}/media`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}` },
      body: form
    })
    const mediaId = ((await uploaded.json()) as any).media.id
    const reply = await call(host, "POST", "/posts", {
      key,
      body: { accountIds: [accountId], content: "w".repeat(1100), mediaIds: [mediaId], dryRun: true }
    })
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    const warnings: Array<string> = reply.body.targets?.[0]?.warnings ?? reply.body.preview?.targets?.[0]?.warnings
    expect(warnings.join(" ")).toContain("caption of up to 1024 characters")
  })

  it("honours flood control's retry_after: no call before it, published after", async () => {
    fake.floodWait("sendMessage", 120)
    const id = await post({ content: "Waits for Telegram" })
    await pass()
    expect((await view(id)).targets[0]).toMatchObject({ status: "publishing", externalId: null })
    const calls = fake.calls("sendMessage").length
    later(110_000)
    expect(await pass()).toBe(0)
    expect(fake.calls("sendMessage")).toHaveLength(calls)
    later(15_000)
    await passes()
    expect((await view(id)).status).toBe("published")
    expect(fake.calls("sendMessage")).toHaveLength(calls + 1)
  })

  it("a bot kicked from the channel marks the account needs_reconnection; reconnecting restores it", async () => {
    fake.kick(chat, token)
    const id = await post({ content: "After the kick" })
    await pass()
    const failed = (await view(id)).targets[0]
    expect(failed).toMatchObject({ status: "failed", error: { code: "account_needs_reconnection" } })
    expect(failed.error.message).toContain("bot was kicked")
    const accounts = await call(host, "GET", "/accounts", { key })
    expect(accounts.body.accounts.find((a: any) => a.id === accountId).status).toBe("needs_reconnection")
    fake.join(chat, token)
    const back = await connect()
    expect(back).toMatchObject({ id: accountId, status: "connected" })
    const id2 = await post({ content: "Back again" })
    await passes()
    expect((await view(id2)).status).toBe("published")
  })
})
