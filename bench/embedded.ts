import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { continueConnectLink } from "../test/support/connectLink.ts"
import { freePort } from "../test/support/freePort.ts"
import { nodeArgsOf, nodeEnvOf } from "./npmScript.ts"
import { cpuOf } from "./proc.ts"

/*
 * `npm run bench -- embedded`: `npm start` (its node command, flags and environment included) on a fresh temporary
 * HERALD_DATA_DIR, no DATABASE_URL, S3 or SMTP: the time from spawn to the first 200 of
 * GET /api/v1/openapi.json (and, steadier than that time on a shared machine, the CPU time the
 * process used by then and the time less what its main thread spent waiting for a CPU), then SIGTERM, and the same again on the same data dir (a restart).
 * A new data dir starts from the PGlite template that `npm install` makes; a third start shows the
 * first new data dir without one (initdb, once per machine).
 * Idle RSS (VmRSS of the node process) after BENCH_IDLE_SECONDS (5) of idling after start, and again
 * after a small workload (a sign-up, a sandbox connect, 10 posts) and the same idle time.
 * Targets: ready in 3 s fresh and 1.5 s on restart, idle RSS at most 300 MB (a 1 GB VPS).
 */

const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 5)
const root = fileURLToPath(new URL("..", import.meta.url))
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** How long the process's main thread has waited for a CPU while runnable, in ms (Linux schedstat). */
const runQueueWaitOf = (pid: number) =>
  Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, "utf8").split(" ")[1]) / 1e6

/** Resident and peak memory of a process, in MB (Linux /proc). */
const memoryOf = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, "utf8")
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN)
  return { rssMb: Math.round(kb("VmRSS") / 1024), peakMb: Math.round(kb("VmHWM") / 1024) }
}

/** This environment without the settings that would take the host off its embedded defaults. */
const embeddedEnv = () => {
  const { DATABASE_URL: _db, S3_BUCKET: _s3, SMTP_URL: _smtp, ...env } = process.env
  return env
}

const start = async (dataDir: string, extraEnv: Record<string, string> = {}) => {
  const port = await freePort()
  const startedAt = performance.now()
  const child = spawn(process.execPath, nodeArgsOf("start"), {
    cwd: root,
    env: { ...embeddedEnv(), ...nodeEnvOf("start"), PORT: String(port), HERALD_DATA_DIR: dataDir, ...extraEnv },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let log = ""
  child.stdout!.on("data", (d) => (log += d))
  child.stderr!.on("data", (d) => (log += d))
  const base = `http://127.0.0.1:${port}/api/v1`
  while (performance.now() - startedAt < 60_000 && child.exitCode === null) {
    const up = await fetch(`${base}/openapi.json`).then(
      (r) => r.ok,
      () => false
    )
    if (up) {
      const readyMs = Math.round(performance.now() - startedAt)
      return {
        child,
        base,
        readyMs,
        readyCpuMs: Math.round(cpuOf(child.pid!).own),
        readyUnloadedMs: Math.round(readyMs - runQueueWaitOf(child.pid!))
      }
    }
    await sleep(20)
  }
  child.kill("SIGKILL")
  throw new Error(`npm start did not get ready:\n${log}`)
}

const stop = async (child: ChildProcess) => {
  const stoppedAt = performance.now()
  if (child.exitCode === null) {
    child.kill("SIGTERM")
    await new Promise((r) => child.once("exit", r))
  }
  return Math.round(performance.now() - stoppedAt)
}

const json = async (response: Promise<Response>, status: number) => {
  const r = await response
  const body = await r.text()
  if (r.status !== status) throw new Error(`expected ${status}, got ${r.status}: ${body}`)
  return JSON.parse(body) as Record<string, any>
}

/** A sign-up, a sandbox account connected through its link, ten posts. */
const workload = async (base: string) => {
  const signup = await json(
    fetch(`${base}/signup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "bench@herald-customer.org", agentName: "bench" })
    }),
    201
  )
  const auth = { authorization: `Bearer ${signup.apiKey}` }
  const connect = await json(fetch(`${base}/connect/sandbox`, { headers: auth }), 200)
  const { next, cookie } = await continueConnectLink(connect.url)
  const connected = await json(fetch(next, { headers: { accept: "application/json", cookie } }), 200)
  const scheduledFor = new Date(Date.now() + 3_600_000).toISOString()
  for (let n = 0; n < 10; n++) {
    await json(
      fetch(`${base}/posts`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ accountIds: [connected.account.id], content: `bench post ${n}`, scheduledFor })
      }),
      201
    )
  }
  await json(fetch(`${base}/posts`, { headers: auth }), 200)
}

export const run = async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "herald-embedded-bench-"))
  try {
    const fresh = await start(dataDir)
    let afterStart: ReturnType<typeof memoryOf> | undefined
    let afterWork: ReturnType<typeof memoryOf> | undefined
    let stopMs: number | undefined
    try {
      await sleep(IDLE_SECONDS * 1000)
      afterStart = memoryOf(fresh.child.pid!)
      await workload(fresh.base)
      await sleep(IDLE_SECONDS * 1000)
      afterWork = memoryOf(fresh.child.pid!)
    } finally {
      stopMs = await stop(fresh.child)
    }
    const again = await start(dataDir)
    let afterRestart: ReturnType<typeof memoryOf> | undefined
    try {
      await sleep(IDLE_SECONDS * 1000)
      afterRestart = memoryOf(again.child.pid!)
    } finally {
      await stop(again.child)
    }
    // The first new data dir on a machine without the template (npm install makes it): initdb runs once.
    const cold = await start(join(dataDir, "cold"), { HERALD_PGLITE_TEMPLATE_DIR: join(dataDir, "template") })
    await stop(cold.child)
    const figures = {
      fresh_ready_ms: fresh.readyMs,
      restart_ready_ms: again.readyMs,
      fresh_without_template_ready_ms: cold.readyMs,
      fresh_ready_cpu_ms: fresh.readyCpuMs,
      restart_ready_cpu_ms: again.readyCpuMs,
      fresh_ready_unloaded_ms: fresh.readyUnloadedMs,
      restart_ready_unloaded_ms: again.readyUnloadedMs,
      idle_rss_mb: afterStart.rssMb,
      idle_rss_after_work_mb: afterWork.rssMb,
      idle_rss_after_restart_mb: afterRestart.rssMb,
      peak_rss_mb: Math.max(afterWork.peakMb, afterRestart.peakMb),
      stop_ms: stopMs
    }
    const verdict = (ok: boolean) => (ok ? "met" : "NOT met")
    console.log(`npm start (embedded: PGlite, local files, outbox), ${IDLE_SECONDS} s idle before each memory reading`)
    console.log(
      `  ready: fresh data dir ${figures.fresh_ready_ms} ms (target <= 3000 ms, ${verdict(figures.fresh_ready_ms <= 3000)}), restart ${figures.restart_ready_ms} ms (target <= 1500 ms, ${verdict(figures.restart_ready_ms <= 1500)}); CPU used by then ${figures.fresh_ready_cpu_ms} ms and ${figures.restart_ready_cpu_ms} ms`
    )
    console.log(
      `  without the time its main thread waited for a CPU (what an idle machine would take): fresh ${figures.fresh_ready_unloaded_ms} ms, restart ${figures.restart_ready_unloaded_ms} ms`
    )
    console.log(
      `  a new data dir without the PGlite template (made at npm install; else by the first start): ${figures.fresh_without_template_ready_ms} ms`
    )
    console.log(
      `  idle RSS: after start ${figures.idle_rss_mb} MB, after a sign-up, a connect and 10 posts ${figures.idle_rss_after_work_mb} MB, after restart ${figures.idle_rss_after_restart_mb} MB (target <= 300 MB, ${verdict(Math.max(figures.idle_rss_mb, figures.idle_rss_after_work_mb, figures.idle_rss_after_restart_mb) <= 300)}); peak ${figures.peak_rss_mb} MB`
    )
    console.log(`  stop (SIGTERM to exit): ${figures.stop_ms} ms`)
    console.log(JSON.stringify(figures))
    return figures
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run()
