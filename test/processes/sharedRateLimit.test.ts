import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createDatabaseForProcesses } from "../support/postgres.ts"

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port
      s.close(() => resolve(port))
    })
  })

const startHost = async (databaseUrl: string, dataDir: string) => {
  const port = await freePort()
  const child = spawn(process.execPath, ["--import", "tsx", "hosts/embedded/main.ts"], {
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      HERALD_DATA_DIR: dataDir,
      HERALD_SIGNUP_PER_IP_PER_HOUR: "3"
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

const signUp = (base: string, n: number) =>
  fetch(`${base}/signup`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: `shared${n}-${Date.now()}@herald-customer.org` })
  })

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

  let keyFromA = ""
  it("share the sign-up rate limit per network address", async () => {
    const first = await signUp(a, 1)
    expect(first.status).toBe(201)
    keyFromA = ((await first.json()) as { apiKey: string }).apiKey
    expect((await signUp(b, 2)).status).toBe(201)
    expect((await signUp(a, 3)).status).toBe(201)
    const fourth = await signUp(b, 4)
    expect(fourth.status).toBe(429)
    expect(Number(fourth.headers.get("retry-after"))).toBeGreaterThan(0)
    expect((await signUp(a, 5)).status).toBe(429)
  })

  it("serve one set of data: a key made on one host works on the other", async () => {
    const accounts = await fetch(`${b}/accounts`, { headers: { authorization: `Bearer ${keyFromA}` } })
    expect(accounts.status).toBe(200)
    expect(await accounts.json()).toEqual({ accounts: [] })
  })
})
