import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { continueConnectLink } from "../../support/connectLink.ts"
import { freePort } from "../../support/freePort.ts"
import { type FakeDiscord, startFakeDiscord } from "./fakeDiscord.ts"

/** Every file under `dir`, recursively. */
const filesUnder = (dir: string): Array<string> =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path) : [path]
  })

/**
 * `npm start` (the embedded host: HTTP, scheduler and PGlite in one process) with nothing set for
 * Discord but DISCORD_API_URL (the stand-in, on loopback, with HERALD_ALLOW_LOOPBACK): Discord is
 * offered by default, a channel connects by its webhook URL on Herald's form, a post and its thread go
 * out; afterwards the webhook's token is nowhere under $HERALD_DATA_DIR in clear.
 */
describe("npm start with Discord", () => {
  let fake: FakeDiscord
  let child: ChildProcess
  let dataDir: string
  let origin = ""
  let log = ""

  beforeAll(async () => {
    fake = await startFakeDiscord()
    dataDir = mkdtempSync(join(tmpdir(), "herald-discord-"))
    const port = await freePort()
    origin = `http://127.0.0.1:${port}`
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(port),
      HERALD_DATA_DIR: dataDir,
      HERALD_PUBLIC_URL: origin,
      HERALD_ALLOW_LOOPBACK: "true",
      DISCORD_API_URL: fake.apiUrl
    }
    delete env.DISCORD_ENABLED
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

  it("connects a channel by its webhook URL, publishes a post and its thread, and keeps the URL sealed on disk", async () => {
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

    const hook = fake.addWebhook({ name: "Release notes" })
    const link = (await (await fetch(`${api}/connect/discord`, { headers: auth })).json()) as any
    const continued = await continueConnectLink(link.url)
    expect(new URL(continued.next).pathname).toBe("/connect/discord/form")
    const sent = await fetch(`${origin}/connect/discord/callback`, {
      method: "POST",
      headers: {
        origin,
        cookie: continued.cookie,
        accept: "application/json",
        "content-type": "application/x-www-form-urlencoded"
      },
      body: new URLSearchParams({ state: new URL(continued.next).searchParams.get("state")!, webhookUrl: hook.url })
    })
    const { account } = (await sent.json()) as any
    expect(account).toMatchObject({ platform: "discord", name: "Release notes", status: "connected" })

    const posted = await fetch(`${api}/posts`, {
      method: "POST",
      headers: { ...auth, ...json },
      body: JSON.stringify({ accountIds: [account.id], content: "From npm start", thread: ["And a follow-up"] })
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
    const mine = [...fake.state.messages.values()].filter((m) => m.webhookId === hook.id)
    expect(mine.map((m) => m.content)).toEqual(["From npm start", "And a follow-up"])

    child.kill("SIGTERM")
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once("exit", r)))
    const files = filesUnder(dataDir)
    for (const file of files)
      expect(readFileSync(file).includes(hook.token), `the webhook token in clear in ${file}`).toBe(false)
    // The check can see a value: the database files hold the channel's name in clear.
    expect(files.some((f) => readFileSync(f).includes("Release notes"))).toBe(true)
  }, 90_000)
})
