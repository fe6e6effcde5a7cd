import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import sharp from "sharp"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { freePort } from "../../support/freePort.ts"
import { continueConnectLink } from "../../support/connectLink.ts"
import { type FakeBotApi, startFakeBotApi } from "./fakeBotApi.ts"

/** Every file under `dir`, recursively. */
const filesUnder = (dir: string): Array<string> =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path) : [path]
  })

/**
 * `npm start` (the embedded host: HTTP, scheduler and PGlite in one process) with nothing set for
 * Telegram but TELEGRAM_API_URL (the Bot API stand-in, on loopback: the operator's address, not guarded):
 * a channel connects on Herald's form, a post with an image and a thread goes out; afterwards the bot's
 * token is nowhere under $HERALD_DATA_DIR in clear.
 */
describe("npm start with Telegram", () => {
  let fake: FakeBotApi
  let botToken = ""
  let child: ChildProcess
  let dataDir: string
  let origin = ""
  let log = ""

  beforeAll(async () => {
    fake = await startFakeBotApi()
    botToken = fake.addBot(9001, "herald_start_bot")
    fake.join(fake.addChat({ id: -1009001, type: "channel", title: "Start News", username: "start_news" }), botToken)
    dataDir = mkdtempSync(join(tmpdir(), "herald-telegram-"))
    const port = await freePort()
    origin = `http://127.0.0.1:${port}`
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(port),
      HERALD_DATA_DIR: dataDir,
      HERALD_PUBLIC_URL: origin,
      TELEGRAM_API_URL: fake.origin
    }
    delete env.TELEGRAM_ENABLED
    delete env.HERALD_ALLOW_LOOPBACK
    delete env.HERALD_WEBHOOKS_ALLOW_LOOPBACK
    delete env.DATABASE_URL
    delete env.HERALD_SECRET
    child = spawn(process.execPath, ["--import", "tsx", "hosts/embedded/main.ts"], {
      env,
      stdio: ["ignore", "pipe", "pipe"]
    })
    child.stdout!.on("data", (d) => (log += d))
    child.stderr!.on("data", (d) => (log += d))
    for (let i = 0; i < 300; i++) {
      if (
        await fetch(`${origin}/api/v1/openapi.json`).then(
          (r) => r.ok,
          () => false
        )
      )
        return
      if (child.exitCode !== null) break
      await new Promise((r) => setTimeout(r, 200))
    }
    throw new Error(`host did not start:\n${log}`)
  }, 90_000)

  afterAll(async () => {
    if (child?.exitCode === null) {
      child.kill("SIGKILL")
      await new Promise((r) => child.once("exit", r))
    }
    await fake?.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it("connects a channel on the form, publishes an image and a thread, and keeps the bot token sealed on disk", async () => {
    const api = `${origin}/api/v1`
    const json = { "content-type": "application/json" }
    const signup = await fetch(`${api}/signup`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ email: "owner@herald-customer.org", agentName: "Agent" })
    })
    expect(signup.status, await signup.clone().text()).toBe(201)
    // The claim link is in the outbox (no SMTP configured).
    const eml = readFileSync(filesUnder(join(dataDir, "outbox"))[0], "utf8")
    const text = Buffer.from(eml.split("\r\n\r\n")[1].replace(/\s/g, ""), "base64").toString("utf8")
    const token = /claim\?token=([A-Za-z0-9]+)/.exec(text)![1]
    const claimed = await fetch(`${origin}/claim`, {
      method: "POST",
      body: new URLSearchParams({ token, locale: "en" }),
      redirect: "manual"
    })
    const cookie = claimed.headers.get("set-cookie")!.split(";")[0]
    const csrf = /<meta name="csrf-token" content="([^"]+)">/.exec(
      await (await fetch(`${origin}/app`, { headers: { cookie } })).text()
    )![1]
    const created = (await (
      await fetch(`${api}/keys`, {
        method: "POST",
        headers: { ...json, cookie, "x-csrf-token": csrf },
        body: JSON.stringify({ name: "bot", requireApproval: false })
      })
    ).json()) as any
    const auth = { authorization: `Bearer ${created.apiKey}` }

    const link = (await (await fetch(`${api}/connect/telegram`, { headers: auth })).json()) as any
    const { next, cookie: browser } = await continueConnectLink(link.url)
    const state = new URL(next).searchParams.get("state")!
    const back = await fetch(`${origin}/connect/telegram/callback`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        accept: "application/json",
        origin,
        cookie: browser
      },
      body: new URLSearchParams({ state, botToken, chat: "@start_news" })
    })
    const { account } = (await back.json()) as any
    expect(account).toMatchObject({ platform: "telegram", username: "@start_news", status: "connected" })

    const form = new FormData()
    form.append(
      "file",
      new Blob(
        [
          await sharp({ create: { width: 64, height: 48, channels: 3, background: "#284" } })
            .png()
            .toBuffer()
        ],
        { type: "image/png" }
      ),
      "a.png"
    )
    const { media } = (await (await fetch(`${api}/media`, { method: "POST", headers: auth, body: form })).json()) as any
    const posted = await fetch(`${api}/posts`, {
      method: "POST",
      headers: { ...auth, ...json },
      body: JSON.stringify({
        accountIds: [account.id],
        content: "From npm start",
        mediaIds: [media.id],
        thread: ["And a reply"]
      })
    })
    expect(posted.status, await posted.clone().text()).toBe(201)
    const id = ((await posted.json()) as any).post.id
    let post: any = null
    // The scheduler in the process publishes it; a generous bound, not a timing assertion.
    for (let i = 0; i < 150 && post?.status !== "published"; i++) {
      await new Promise((r) => setTimeout(r, 200))
      post = ((await (await fetch(`${api}/posts/${id}`, { headers: auth })).json()) as any).post
    }
    expect(post?.status, log).toBe("published")
    const [root, reply] = fake.messages.slice(-2)
    expect(root).toMatchObject({ method: "sendPhoto", caption: "From npm start" })
    expect(reply).toMatchObject({ text: "And a reply", replyTo: root!.message_id })
    expect(post.targets[0].url).toBe(`https://t.me/start_news/${root!.message_id}`)

    child.kill("SIGTERM")
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once("exit", r)))
    const secret = botToken.split(":")[1]!
    const files = filesUnder(dataDir)
    for (const file of files)
      expect(readFileSync(file).includes(secret), `the bot token in clear in ${file}`).toBe(false)
    // The check can see a value: the database files hold the account's profile in clear.
    expect(files.some((f) => readFileSync(f).includes("Start News"))).toBe(true)
  }, 90_000)
})
