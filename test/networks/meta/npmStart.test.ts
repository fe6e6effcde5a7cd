import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import ffmpeg from "@ffmpeg-installer/ffmpeg"
import sharp from "sharp"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { freePort } from "../../support/freePort.ts"
import { type FakeGraph, startFakeGraph } from "./fakeGraph.ts"
import { continueConnectLink } from "../../support/connectLink.ts"

const filesUnder = (dir: string): Array<string> =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path) : [path]
  })

/** `npm start`'s command line from package.json: its environment assignments and Node's arguments. */
const startCommand = () => {
  const script: string = JSON.parse(readFileSync("package.json", "utf8")).scripts.start
  const words = script.split(/\s+/)
  const env = Object.fromEntries(
    words.filter((w) => /^[A-Z_]+=/.test(w)).map((w) => w.split("=", 2) as [string, string])
  )
  return { env, args: words.slice(words.indexOf("node") + 1) }
}

/**
 * `npm start` (HTTP, scheduler and PGlite in one process) with the Meta variables pointing at the
 * fake Graph API, which fetches media from Herald's own signed /files links under HERALD_PUBLIC_URL:
 * a Page and an Instagram account connect; a carousel with a first comment and a reel with a cover go
 * to Instagram, a text post with a link to the Page, a thread to Threads; a token revoked on Meta's
 * side ends in needs_reconnection without a retry loop; no token Meta issued is on disk in clear.
 */
describe("npm start with Facebook, Instagram and Threads configured", () => {
  let fake: FakeGraph
  let child: ChildProcess
  let dataDir: string
  let origin = ""
  let log = ""
  let mp4: Buffer

  beforeAll(async () => {
    fake = await startFakeGraph()
    // Fewer polls than the adapter tests: this runs on the real clock.
    fake.state.containerPolls = 1
    fake.state.videoPolls = 1
    dataDir = mkdtempSync(join(tmpdir(), "herald-meta-"))
    execFileSync(ffmpeg.path, [
      "-v",
      "error",
      "-y",
      "-f",
      "lavfi",
      "-i",
      "testsrc=size=240x426:rate=15",
      "-t",
      "1",
      "-pix_fmt",
      "yuv420p",
      "-c:v",
      "libx264",
      "-preset",
      "ultrafast",
      join(dataDir, "reel.mp4")
    ])
    mp4 = readFileSync(join(dataDir, "reel.mp4"))
    rmSync(join(dataDir, "reel.mp4"))
    const port = await freePort()
    origin = `http://127.0.0.1:${port}`
    const start = startCommand()
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...start.env,
      PORT: String(port),
      HERALD_DATA_DIR: dataDir,
      HERALD_PUBLIC_URL: origin,
      HERALD_FIRST_COMMENT_DELAY_MS: "2000",
      ...fake.env()
    }
    delete env.DATABASE_URL
    delete env.HERALD_SECRET
    child = spawn(process.execPath, start.args, { env, stdio: ["ignore", "pipe", "pipe"] })
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
  }, 120_000)

  afterAll(async () => {
    if (child?.exitCode === null) {
      child.kill("SIGKILL")
      await new Promise((r) => child.once("exit", r))
    }
    await fake?.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it("connects, publishes to all three as asked, stops at a revoked token, and keeps every token sealed on disk", async () => {
    const api = `${origin}/api/v1`
    const json = { "content-type": "application/json" }
    const signup = await fetch(`${api}/signup`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ email: "owner@herald-customer.org", agentName: "Agent" })
    })
    expect(signup.status, await signup.clone().text()).toBe(201)
    const eml = readFileSync(filesUnder(join(dataDir, "outbox"))[0]!, "utf8")
    const text = Buffer.from(eml.split("\r\n\r\n")[1]!.replace(/\s/g, ""), "base64").toString("utf8")
    const token = /claim\?token=([A-Za-z0-9]+)/.exec(text)![1]!
    const claimed = await fetch(`${origin}/claim`, {
      method: "POST",
      body: new URLSearchParams({ token, locale: "en" }),
      redirect: "manual"
    })
    const cookie = claimed.headers.get("set-cookie")!.split(";")[0]!
    const csrf = /<meta name="csrf-token" content="([^"]+)">/.exec(
      await (await fetch(`${origin}/app`, { headers: { cookie } })).text()
    )![1]!
    const created = (await (
      await fetch(`${api}/keys`, {
        method: "POST",
        headers: { ...json, cookie, "x-csrf-token": csrf },
        body: JSON.stringify({ name: "bot", requireApproval: false })
      })
    ).json()) as any
    const auth = { authorization: `Bearer ${created.apiKey}` }

    const connectVia = async (platform: string) => {
      const link = (await (await fetch(`${api}/connect/${platform}`, { headers: auth })).json()) as any
      const { next, cookie } = await continueConnectLink(link.url)
      const atMeta = await fetch(next, { redirect: "manual" })
      const back = await fetch(atMeta.headers.get("location")!, { headers: { accept: "application/json", cookie } })
      expect(back.status, await back.clone().text()).toBe(200)
      return ((await back.json()) as any).accounts as Array<any>
    }
    const fromFacebook = await connectVia("facebook")
    const pageAccount = fromFacebook.find((a) => a.platform === "facebook" && a.name === "Herald Bakery")
    const igAccount = fromFacebook.find((a) => a.platform === "instagram")
    expect(igAccount).toMatchObject({ username: "herald.bakery", status: "connected" })
    const [threadsAccount] = await connectVia("threads")
    expect(threadsAccount).toMatchObject({ platform: "threads", username: "herald.threads" })

    const uploadFile = async (bytes: Buffer, type: string, name: string) => {
      const form = new FormData()
      form.append("file", new Blob([bytes], { type }), name)
      const { media } = (await (
        await fetch(`${api}/media`, { method: "POST", headers: auth, body: form })
      ).json()) as any
      return media.id as string
    }
    const jpeg = (color: string) =>
      sharp({ create: { width: 64, height: 80, channels: 3, background: color } })
        .jpeg()
        .toBuffer()
    const post = async (body: Record<string, unknown>) => {
      const reply = await fetch(`${api}/posts`, {
        method: "POST",
        headers: { ...auth, ...json },
        body: JSON.stringify(body)
      })
      expect(reply.status, await reply.clone().text()).toBe(201)
      return ((await reply.json()) as any).post.id as string
    }
    const view = async (id: string) =>
      ((await (await fetch(`${api}/posts/${id}`, { headers: auth })).json()) as any).post
    const settled = async (ids: ReadonlyArray<string>, done: (p: any) => boolean) => {
      let posts: Array<any> = []
      // The scheduler in the process publishes them; a generous bound, not a timing assertion.
      for (let i = 0; i < 300; i++) {
        posts = await Promise.all(ids.map(view))
        if (posts.every(done)) break
        await new Promise((r) => setTimeout(r, 250))
      }
      return posts
    }

    const images = [
      await uploadFile(await jpeg("#123"), "image/jpeg", "1.jpg"),
      await uploadFile(await jpeg("#456"), "image/jpeg", "2.jpg")
    ]
    const video = await uploadFile(mp4, "video/mp4", "reel.mp4")
    const cover = await uploadFile(await jpeg("#fc0"), "image/jpeg", "cover.jpg")
    const ids = [
      await post({
        accountIds: [igAccount.id],
        content: "Two loaves #bakery",
        mediaIds: images,
        firstComment: "Open 7 to 7"
      }),
      await post({
        accountIds: [igAccount.id],
        content: "Behind the oven",
        mediaIds: [video],
        cover: { mediaId: cover }
      }),
      await post({ accountIds: [pageAccount.id], content: "New menu: https://bakery.example/menu" }),
      await post({
        accountIds: [threadsAccount.id],
        content: "Bread, a thread",
        thread: ["First, the flour", "Then, the oven"]
      })
    ]
    const [carousel, reel, page, thread] = await settled(
      ids,
      (p) =>
        p.status === "published" &&
        (p.targets[0].firstComment === null || p.targets[0].firstComment.status === "published")
    )
    expect(
      [carousel, reel, page, thread].map((p) => p.status),
      log
    ).toEqual(["published", "published", "published", "published"])

    const carouselMedia = fake.posts.find((p) => p.id === carousel.targets[0].externalId)!
    expect(carouselMedia).toMatchObject({ mediaType: "CAROUSEL", text: "Two loaves #bakery" })
    // Published once, from a carousel whose items had all finished; the comment on it.
    const publishes = fake
      .calls("POST", "/v26.0/17841400000000001/media_publish")
      .filter((r) => r.body.creation_id === carouselMedia.container)
    expect(publishes).toHaveLength(1)
    expect(fake.posts.find((p) => p.kind === "comment" && p.replyTo === carouselMedia.id)).toMatchObject({
      text: "Open 7 to 7"
    })
    expect(carousel.targets[0].firstComment.status).toBe("published")
    const reelMedia = fake.posts.find((p) => p.id === reel.targets[0].externalId)!
    expect(reelMedia).toMatchObject({ mediaType: "REELS", text: "Behind the oven" })
    expect(reelMedia.cover).toMatch(new RegExp(`^${origin}/files/.+\\?expires=\\d+&signature=`))
    // Meta fetched every upload from Herald's own signed links.
    for (const f of fake.fetches) expect(f, f.url).toMatchObject({ status: 200 })
    expect(fake.fetches.map((f) => new URL(f.url).origin)).toEqual(fake.fetches.map(() => origin))
    expect(fake.posts.find((p) => p.id === page.targets[0].externalId)).toMatchObject({
      kind: "feed",
      link: "https://bakery.example/menu"
    })
    const chain = [thread.targets[0].externalId, ...thread.targets[0].thread.map((r: any) => r.externalId)].map(
      (id: string) => fake.posts.find((p) => p.id === id)!
    )
    expect(chain.map((p) => [p.text, p.replyTo])).toEqual([
      ["Bread, a thread", null],
      ["First, the flour", chain[0]!.id],
      ["Then, the oven", chain[1]!.id]
    ])

    // Meta ends the grant (a password change): one refused call, then needs_reconnection, and no further calls.
    fake.revoke("10150000000000001")
    const before = fake.requests.length
    const [revoked] = await settled(
      [await post({ accountIds: [pageAccount.id], content: "After the password change" })],
      (p) => p.status === "failed"
    )
    expect(revoked.targets[0].error, log).toMatchObject({ code: "account_needs_reconnection", retryable: false })
    const accounts = ((await (await fetch(`${api}/accounts`, { headers: auth })).json()) as any).accounts
    expect(accounts.find((a: any) => a.id === pageAccount.id).status).toBe("needs_reconnection")
    // A create for that account is refused up front, without a call to Meta.
    const refused = await fetch(`${api}/posts`, {
      method: "POST",
      headers: { ...auth, ...json },
      body: JSON.stringify({ accountIds: [pageAccount.id], content: "Still revoked" })
    })
    expect(refused.status).toBe(409)

    // Everything the process did from the revocation to its exit (a graceful stop lets work in flight
    // finish): Meta got the one refused call, nothing retried it.
    child.kill("SIGTERM")
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once("exit", r)))
    expect(fake.requests.slice(before).map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /v26.0/101000000000001/feed"
    ])
    const tokens = fake.issuedTokens()
    expect(tokens.length).toBeGreaterThan(0)
    const files = filesUnder(dataDir)
    for (const file of files) {
      const bytes = readFileSync(file)
      for (const t of tokens) expect(bytes.includes(t), `${t.slice(0, 8)}… in clear in ${file}`).toBe(false)
    }
    expect(files.some((f) => readFileSync(f).includes("Herald Bakery"))).toBe(true)
  }, 180_000)
})
