import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import sharp from "sharp"
import { expect } from "vitest"
import { nodeArgsOf, nodeEnvOf } from "../../bench/npmScript.ts"
import { continueConnectLink } from "./connectLink.ts"
import { freePort } from "./freePort.ts"

/** Every file under `dir`, recursively. */
export const filesUnder = (dir: string): Array<string> =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path) : [path]
  })

/**
 * `npm start` as a person runs it (its node command line from package.json; the embedded host: HTTP, scheduler and PGlite in one process)
 * with the environment given, a fresh $HERALD_DATA_DIR, and a workspace signed up, claimed through
 * the outbox's link and given a key that posts without approval.
 */
export const startEmbedded = async (env: Record<string, string>) => {
  const dataDir = mkdtempSync(join(tmpdir(), "herald-embedded-"))
  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HERALD_DATA_DIR: dataDir,
    HERALD_PUBLIC_URL: origin,
    ...env
  }
  delete childEnv.DATABASE_URL
  delete childEnv.HERALD_SECRET
  let log = ""
  let child: ChildProcess
  /** Starts the process (again, on the same data directory and port) and waits until it answers. */
  const launch = async () => {
    // Exactly what `npm start` runs (its node flags and environment), with this test's environment on top.
    child = spawn(process.execPath, nodeArgsOf("start"), {
      env: { ...nodeEnvOf("start"), ...childEnv },
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
        return true
      if (child.exitCode !== null) return false
      await new Promise((r) => setTimeout(r, 200))
    }
    return false
  }
  const exited = () =>
    new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r(null) : child.once("exit", r)))
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM")
      await exited()
    }
  }
  /** The process dies at once (a crash, a power cut): nothing runs to an end. */
  const crash = async () => {
    child.kill("SIGKILL")
    await exited()
  }
  const restart = async () => {
    if (!(await launch())) throw new Error(`host did not start again:\n${log}`)
  }
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGKILL")
      await exited()
    }
    rmSync(dataDir, { recursive: true, force: true })
  }
  if (!(await launch())) {
    await close()
    throw new Error(`host did not start:\n${log}`)
  }

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

  /** The browser: GET /connect/{platform}, open the network's page, follow its redirect back; the accounts made. */
  const connect = async (platform: string) => {
    const link = (await (await fetch(`${api}/connect/${platform}`, { headers: auth })).json()) as any
    const { next, cookie } = await continueConnectLink(link.url)
    const atNetwork = await fetch(next, { redirect: "manual" })
    expect(atNetwork.status, await atNetwork.clone().text()).toBe(302)
    const back = await fetch(atNetwork.headers.get("location")!, { headers: { accept: "application/json", cookie } })
    const body = (await back.json()) as any
    expect(back.status, JSON.stringify(body)).toBe(200)
    return body.accounts as Array<{ id: string; platform: string; name: string; username: string; status: string }>
  }
  const upload = async (bytes: Uint8Array, type: string, name: string) => {
    const form = new FormData()
    form.append("file", new Blob([bytes as Uint8Array<ArrayBuffer>], { type }), name)
    const reply = await fetch(`${api}/media`, { method: "POST", headers: auth, body: form })
    expect(reply.status, await reply.clone().text()).toBe(201)
    return ((await reply.json()) as any).media.id as string
  }
  const png = async (color: string) =>
    upload(
      await sharp({ create: { width: 64, height: 48, channels: 3, background: color } })
        .png()
        .toBuffer(),
      "image/png",
      `${color.slice(1)}.png`
    )
  const post = async (body: Record<string, unknown>) => {
    const reply = await fetch(`${api}/posts`, {
      method: "POST",
      headers: { ...auth, ...json },
      body: JSON.stringify(body)
    })
    return { status: reply.status, body: (await reply.json()) as any }
  }
  /** Reads the post until `done` holds (the scheduler in the process publishes it); a generous bound, not a timing assertion. */
  const until = async (id: string, done: (post: any) => boolean) => {
    let found: any = null
    for (let i = 0; i < 300 && !(found !== null && done(found)); i++) {
      await new Promise((r) => setTimeout(r, 200))
      found = ((await (await fetch(`${api}/posts/${id}`, { headers: auth })).json()) as any).post
    }
    return found
  }
  return {
    origin,
    api,
    auth,
    /** The owner's session (cookie and CSRF token), as the claim left it. */
    session: { cookie, csrf },
    dataDir,
    log: () => log,
    connect,
    upload,
    png,
    post,
    until,
    stop,
    crash,
    restart,
    close
  }
}
