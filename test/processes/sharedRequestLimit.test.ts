import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { nodeArgsOf } from "../../bench/npmScript.ts"
import { freePort } from "../support/freePort.ts"
import { createDatabaseForProcesses } from "../support/postgres.ts"

/*
 * Two `npm run http` processes on one PostgreSQL database share each key's request limit: 40 a
 * minute here, leased 4 at a time (10 %). A host spends what it leased in memory; the shared count
 * never grants more than 40 in a minute, whichever host a request reaches.
 */

const LIMIT = 40
const LEASE = 4
const MINUTE = 60_000

const startHost = async (databaseUrl: string, dataDir: string) => {
  const port = await freePort()
  const child = spawn(process.execPath, nodeArgsOf("http"), {
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      HERALD_DATA_DIR: dataDir,
      HERALD_SIGNUP_PER_IP_PER_HOUR: "1000",
      HERALD_KEY_REQUESTS_PER_MINUTE: String(LIMIT),
      HERALD_WORKSPACE_REQUESTS_PER_MINUTE: "1000",
      HERALD_REQUEST_LEASE_PERCENT: "10"
    },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let log = ""
  child.stdout!.on("data", (d) => (log += d))
  child.stderr!.on("data", (d) => (log += d))
  const base = `http://127.0.0.1:${port}/api/v1`
  for (let i = 0; i < 150; i++) {
    const up = await fetch(`${base}/openapi.json`).then(
      (r) => r.ok,
      () => false
    )
    if (up) return { child, base }
    if (child.exitCode !== null) break
    await new Promise((r) => setTimeout(r, 200))
  }
  child.kill("SIGKILL")
  throw new Error(`host did not start:\n${log}`)
}

describe("two HTTP host processes on one PostgreSQL database", () => {
  let db: Awaited<ReturnType<typeof createDatabaseForProcesses>>
  const children: Array<ChildProcess> = []
  const dirs: Array<string> = []
  let a: string, b: string
  beforeAll(async () => {
    db = await createDatabaseForProcesses()
    for (let i = 0; i < 2; i++) dirs.push(mkdtempSync(join(tmpdir(), "herald-host-")))
    const [hostA, hostB] = await Promise.all([startHost(db.url, dirs[0]), startHost(db.url, dirs[1])])
    children.push(hostA.child, hostB.child)
    a = hostA.base
    b = hostB.base
  }, 90_000)
  afterAll(async () => {
    for (const child of children) child.kill("SIGTERM")
    await Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once("exit", r)))))
    await db?.drop()
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  }, 30_000)

  let emails = 0
  const newKey = async () => {
    const reply = await fetch(`${a}/signup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: `limits${++emails}-${Date.now()}@herald-customer.org` })
    })
    expect(reply.status).toBe(201)
    return ((await reply.json()) as { apiKey: string }).apiKey
  }
  /** `n` requests to a host, alternating a router endpoint and the fast path; the statuses. */
  const send = async (base: string, key: string, n: number) => {
    const statuses: Array<number> = []
    for (let i = 0; i < n; i++) {
      const reply =
        i % 2 === 0
          ? await fetch(`${base}/accounts`, { headers: { authorization: `Bearer ${key}` } })
          : await fetch(`${base}/posts`, {
              method: "POST",
              headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
              body: JSON.stringify({ accountIds: [], content: "x" })
            })
      if (reply.status === 429) expect(Number(reply.headers.get("retry-after"))).toBeGreaterThan(0)
      await reply.arrayBuffer()
      statuses.push(reply.status)
    }
    return { admitted: statuses.filter((s) => s !== 429).length, refused: statuses.filter((s) => s === 429).length }
  }
  /** Runs a scenario until one run fits in one minute (the counts start again at each minute). */
  const inOneMinute = async (scenario: () => Promise<void>) => {
    for (let run = 1; ; run++) {
      const minute = Math.floor(Date.now() / MINUTE)
      const failure = await scenario().then(
        () => undefined,
        (error: unknown) => ({ error })
      )
      if (Math.floor(Date.now() / MINUTE) === minute || run === 3) {
        if (failure) throw failure.error
        return
      }
    }
  }

  it("share a key's request limit: never more than the limit in a minute, whichever host is asked", async () => {
    await inOneMinute(async () => {
      const key = await newKey()
      // A leases 4 and spends 2; B gets what the shared count has left; A then spends the 2 it holds.
      expect(await send(a, key, 2)).toEqual({ admitted: 2, refused: 0 })
      expect(await send(b, key, LIMIT)).toEqual({ admitted: LIMIT - LEASE, refused: LEASE })
      expect(await send(a, key, 5)).toEqual({ admitted: LEASE - 2, refused: 3 })
      expect(await send(b, key, 3)).toEqual({ admitted: 0, refused: 3 })
    })
  }, 60_000)

  it("requests spread over both hosts are admitted up to the limit at most", async () => {
    await inOneMinute(async () => {
      const key = await newKey()
      let admitted = 0
      for (let i = 0; i < 30; i++) admitted += (await send(i % 3 === 0 ? a : b, key, 2)).admitted
      expect(admitted).toBeLessThanOrEqual(LIMIT)
      expect(admitted).toBeGreaterThanOrEqual(LIMIT - LEASE)
    })
  }, 60_000)
})
