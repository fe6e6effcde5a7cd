import { spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { request } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sendBody } from "../support/bigBody.ts"
import { freePort } from "../support/freePort.ts"

const MB = 1_000_000

/** Resident memory of a process, from /proc (Linux). */
const rssOf = (pid: number): number => {
  const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))
  return Number(line![1]) * 1024
}

/** One request on its own connection (fetch's pooled sockets trip over the server closing them at exit). */
const get = (url: string, headers: Record<string, string> = {}) =>
  new Promise<number>((resolve) => {
    const req = request(url, { headers, agent: false }, (res) => {
      res.resume()
      res.on("end", () => resolve(res.statusCode ?? 0))
    })
    req.on("error", () => resolve(0))
    req.end()
  })

/** `npm start` as a real process: the HTTP host and the scheduler, PGlite in a fresh data directory. */
const startHerald = async (dataDir: string) => {
  const port = await freePort()
  const { DATABASE_URL: _db, S3_BUCKET: _s3, SMTP_URL: _smtp, ...env } = process.env
  const child = spawn(process.execPath, ["--max-semi-space-size=32", "--import", "tsx", "hosts/embedded/main.ts"], {
    env: { ...env, PORT: String(port), HERALD_DATA_DIR: dataDir },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let log = ""
  child.stdout!.on("data", (d) => (log += d))
  child.stderr!.on("data", (d) => (log += d))
  const origin = `http://127.0.0.1:${port}`
  for (let i = 0; i < 300; i++) {
    if ((await get(`${origin}/api/v1/openapi.json`)) === 200) return { child, origin, log: () => log }
    if (child.exitCode !== null) break
    await new Promise((r) => setTimeout(r, 200))
  }
  child.kill("SIGKILL")
  throw new Error(`Herald did not start:\n${log}`)
}

let herald: Awaited<ReturnType<typeof startHerald>>
let dataDir = ""
let key = ""
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "herald-hostile-"))
  herald = await startHerald(dataDir)
  const email = `owner${Date.now()}@herald-customer.org`
  const signup = await sendBody(`${herald.origin}/api/v1/signup`, { head: `{"email":"${email}"`, size: 0, tail: "}" })
  expect(signup.status).toBe(201)
  key = signup.body.apiKey
}, 120_000)

afterAll(async () => {
  if (herald?.child.exitCode === null) {
    herald.child.kill("SIGTERM")
    await new Promise((r) => herald.child.once("exit", r))
  }
  rmSync(dataDir, { recursive: true, force: true })
}, 30_000)

const stillAnswers = async () => {
  expect(herald.child.exitCode, herald.log()).toBeNull()
  expect(await get(`${herald.origin}/api/v1/accounts`, { authorization: `Bearer ${key}` })).toBe(200)
}

describe("hostile request bodies against npm start", () => {
  it("refuses four concurrent 20 MB bodies (Content-Length and chunked) within 200 MB of idle memory", async () => {
    await stillAnswers()
    const idle = rssOf(herald.child.pid!)
    let peak = idle
    const sampler = setInterval(() => (peak = Math.max(peak, rssOf(herald.child.pid!))), 10)
    let replies: Array<{ status: number }>
    try {
      replies = await Promise.all([
        sendBody(`${herald.origin}/api/v1/signup`, {
          head: '{"email":"a@herald-customer.org","agentName":"',
          size: 20 * MB,
          tail: '"}'
        }),
        sendBody(`${herald.origin}/api/v1/signup`, {
          head: '{"email":"b@herald-customer.org","agentName":"',
          size: 20 * MB,
          tail: '"}',
          chunked: true
        }),
        sendBody(`${herald.origin}/api/v1/posts`, {
          headers: { authorization: `Bearer ${key}` },
          head: '{"accountIds":["acc_x"],"content":"',
          size: 20 * MB,
          tail: '"}'
        }),
        sendBody(`${herald.origin}/api/v1/posts`, {
          headers: { authorization: `Bearer ${key}` },
          head: '{"accountIds":["acc_x"],"content":"',
          size: 20 * MB,
          tail: '"}',
          chunked: true
        })
      ])
    } finally {
      clearInterval(sampler)
    }
    peak = Math.max(peak, rssOf(herald.child.pid!))
    console.log(`RSS idle ${(idle / MB).toFixed(0)} MB, peak while refusing ${(peak / MB).toFixed(0)} MB`)
    expect(peak - idle, `idle ${(idle / MB).toFixed(0)} MB, peak ${(peak / MB).toFixed(0)} MB`).toBeLessThan(200 * MB)
    expect(replies.map((r) => r.status)).toEqual([413, 413, 413, 413])
    await stillAnswers()
  }, 120_000)

  it("a 120 MB sign-up or post, declared or chunked, is refused and the process stays up", async () => {
    for (const chunked of [false, true]) {
      const signup = await sendBody(`${herald.origin}/api/v1/signup`, {
        head: '{"email":"c@herald-customer.org","agentName":"',
        size: 120 * MB,
        tail: '"}',
        chunked
      })
      expect(signup.status).toBe(413)
      const post = await sendBody(`${herald.origin}/api/v1/posts`, {
        headers: { authorization: `Bearer ${key}` },
        head: '{"accountIds":["acc_x"],"content":"',
        size: 120 * MB,
        tail: '"}',
        chunked
      })
      expect(post.status).toBe(413)
    }
    await stillAnswers()
  }, 120_000)
})
