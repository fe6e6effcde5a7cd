import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import sharp from "sharp"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createDatabaseForProcesses } from "../support/postgres.ts"
import { freePort } from "../support/freePort.ts"
import { flatPng } from "./fixtures.ts"

/*
 * A process test: the HTTP host on its own (`npm start`'s entry point on PostgreSQL), four image
 * bombs at once, and the kernel's record of its peak memory. Before the decoded-size budget each
 * of these took 200-250 MB and seconds of CPU to decode.
 */

const MB = 1024 * 1024
let db: Awaited<ReturnType<typeof createDatabaseForProcesses>>
let child: ChildProcess
let dir: string
let base: string

const memory = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, "utf8")
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) * 1024
  return { rss: kb("VmRSS"), peak: kb("VmHWM") }
}

beforeAll(async () => {
  db = await createDatabaseForProcesses()
  dir = mkdtempSync(join(tmpdir(), "herald-bombs-"))
  const port = await freePort()
  child = spawn(process.execPath, ["--import", "tsx", "hosts/embedded/main.ts"], {
    env: { ...process.env, PORT: String(port), DATABASE_URL: db.url, HERALD_DATA_DIR: dir },
    stdio: ["ignore", "ignore", "pipe"]
  })
  let log = ""
  child.stderr!.on("data", (d) => (log += d))
  base = `http://127.0.0.1:${port}/api/v1`
  for (let i = 0; i < 150; i++) {
    if (
      await fetch(`${base}/openapi.json`).then(
        (r) => r.ok,
        () => false
      )
    )
      return
    if (child.exitCode !== null) break
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error(`host did not start:\n${log}`)
}, 60_000)
afterAll(async () => {
  if (child && child.exitCode === null) {
    child.kill("SIGTERM")
    await new Promise((r) => child.once("exit", r))
  }
  await db?.drop()
  if (dir) rmSync(dir, { recursive: true, force: true })
}, 30_000)

const upload = (apiKey: string, bytes: Uint8Array, name: string) => {
  const form = new FormData()
  form.append("file", new Blob([bytes]), name)
  return fetch(`${base}/media`, { method: "POST", headers: { authorization: `Bearer ${apiKey}` }, body: form })
}

describe("image bombs against a running host", () => {
  it("four 16383 x 16383 16-bit PNGs at once are refused, and the host's peak memory grows by less than 100 MB", async () => {
    const signup = await fetch(`${base}/signup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: `bombs-${Date.now()}@herald-customer.org` })
    })
    const { apiKey } = (await signup.json()) as { apiKey: string }
    // A first upload loads sharp and warms the path, so the figure below is the bombs' alone.
    const warm = await sharp({ create: { width: 640, height: 480, channels: 3, background: "#963" } })
      .png()
      .toBuffer()
    expect((await upload(apiKey, warm, "warm.png")).status).toBe(201)
    const bomb = flatPng(16383, 16383, 16, "rgba")
    const pid = child.pid!
    const before = memory(pid).rss
    // The kernel's peak, reset to the current RSS where /proc allows it; sampled as well in case it does not.
    const reset = (() => {
      try {
        writeFileSync(`/proc/${pid}/clear_refs`, "5")
        return true
      } catch {
        return false
      }
    })()
    let sampled = before
    const sampler = setInterval(() => (sampled = Math.max(sampled, memory(pid).rss)), 5)
    const answers = await Promise.all(Array.from({ length: 4 }, (_, i) => upload(apiKey, bomb, `bomb${i}.png`)))
    clearInterval(sampler)
    const growth = Math.max(sampled, reset ? memory(pid).peak : 0) - before
    for (const res of answers) {
      expect(res.status).toBe(400)
      expect(((await res.json()) as any).error).toMatchObject({
        code: "media_unreadable",
        details: { reason: "decoded_size_over_budget" }
      })
    }
    expect(growth / MB).toBeLessThan(100)
  }, 120_000)
})
