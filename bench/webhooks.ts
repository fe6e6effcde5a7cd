import type { ChildProcess } from "node:child_process"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { readFileSync } from "node:fs"
import { setTimeout as sleep } from "node:timers/promises"
import { pathToFileURL } from "node:url"
import { parseArgs } from "node:util"
import { Effect, Layer, ManagedRuntime } from "effect"
import { SqlClient } from "effect/sql"
import { Webhook } from "standardwebhooks"
import * as HttpWebhookSender from "../adapters/webhooks/HttpWebhookSender.ts"
import { EventOutbox } from "../application/ports/EventOutbox.ts"
import { postEvent } from "../application/usecases/webhooks/events.ts"
import { createWebhook } from "../application/usecases/webhooks/manage.ts"
import type { HeraldEvent } from "../domain/events.ts"
import type { Post } from "../domain/post.ts"
import { exited, freshDatabase, pgCore, seedWorkspace, spawnScheduler } from "../test/scheduler/pg.ts"

/*
 * `npm run bench -- webhooks`: N events delivered by 2 scheduler processes on PostgreSQL to a
 * receiver on loopback that verifies every signature. The events are written to the outbox at a
 * steady rate over `--spread-ms` (each a post.created of its own post, as the create path writes
 * them), once both schedulers are up. Lag is the event's time (written) -> the receiver getting it.
 * `--neighbour`: the noisy-neighbour variant (webhooksNeighbour.ts).
 */

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== "webhooks"),
  options: {
    events: { type: "string", default: "10000" },
    "spread-ms": { type: "string", default: "5000" },
    schedulers: { type: "string", default: "2" },
    // The noisy-neighbour variant (webhooksNeighbour.ts); --events is then the normal workspace's.
    neighbour: { type: "boolean", default: false },
    "neighbour-events": { type: "string", default: "500" }
  }
})
const EVENTS = Number(values.events)
const SPREAD_MS = Number(values["spread-ms"])
const SCHEDULERS = Number(values.schedulers)
const SECRET = "herald test secret" // pgCore seals with it; the schedulers must open what it sealed

const cpuMs = (pid: number | undefined): number => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100
  } catch {
    return 0
  }
}

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!

const ready = (child: ChildProcess) =>
  new Promise<void>((resolve, reject) => {
    child.stderr?.on("data", () => undefined)
    child.stdout?.on("data", (chunk: Buffer) => (chunk.toString().includes("scheduler:") ? resolve() : undefined))
    child.once("exit", (code) => reject(new Error(`scheduler exited early (${code})`)))
  })

export const run = async () => {
  if (values.neighbour)
    return import("./webhooksNeighbour.ts").then((m) =>
      m.run({
        events: values.events === "10000" ? 2000 : EVENTS,
        neighbourEvents: Number(values["neighbour-events"]),
        spreadMs: SPREAD_MS,
        schedulers: SCHEDULERS
      })
    )
  const db = await freshDatabase("herald_bench_hooks")
  const runtime = ManagedRuntime.make(Layer.merge(pgCore(db.url, 8), HttpWebhookSender.layer({ allowLoopback: true })))
  const children: Array<ChildProcess> = []
  // The receiver: verifies each request with the Standard Webhooks library, remembers when it came.
  const arrivals = new Map<string, number>()
  let requests = 0
  let unverified = 0
  let verifier: Webhook | null = null
  const server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      const at = Date.now()
      requests++
      const id = String(req.headers["webhook-id"])
      try {
        verifier!.verify(Buffer.concat(chunks).toString("utf8"), req.headers as Record<string, string>)
      } catch {
        unverified++
      }
      if (!arrivals.has(id)) arrivals.set(id, at)
      res.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`
  try {
    console.log(
      `webhooks bench: ${EVENTS} events written over ${SPREAD_MS} ms, ${SCHEDULERS} schedulers (default delivery settings), receiver on loopback`
    )
    const { template } = await runtime.runPromise(
      Effect.gen(function* () {
        const { workspaceId, agent, accountIds } = yield* seedWorkspace(1)
        const created = yield* createWebhook(agent, { url, eventTypes: ["post.created"] })
        verifier = new Webhook(created.secret)
        const template: Post = {
          id: "",
          workspaceId,
          status: "scheduled",
          content: "bench",
          mediaIds: [],
          firstComment: null,
          thread: [],
          poll: null,
          cover: null,
          tiktokAiGenerated: false,
          networkOptions: {},
          overrides: {},
          scheduledFor: Date.now() + 86_400_000,
          requireApproval: false,
          createdBy: { kind: "key", id: agent.kind === "key" ? agent.keyId : "", name: "bench" },
          createdAt: Date.now(),
          updatedAt: Date.now(),
          publishedAt: null,
          deletedAt: null,
          deletedReason: null,
          targets: accountIds.map((accountId) => ({
            accountId,
            platform: "sandbox" as const,
            status: "scheduled" as const,
            externalId: null,
            url: null,
            publishedAt: null,
            error: null,
            firstComment: null,
            thread: [],
            attempts: 0
          }))
        }
        return { template }
      })
    )
    const env = {
      HERALD_SECRET: SECRET,
      HERALD_WEBHOOKS_ALLOW_LOOPBACK: "true",
      HERALD_SWEEPERS: "false",
      LOG_LEVEL: "Info"
    }
    for (let i = 0; i < SCHEDULERS; i++) children.push(spawnScheduler(db.url, env, ["ignore", "pipe", "pipe"]))
    await Promise.all(children.map(ready))
    await sleep(1_000)
    const cpuBefore = children.reduce((sum, c) => sum + cpuMs(c.pid), 0)

    // Written in slices every 20 ms, each slice one transaction, as a busy service writes its changes.
    const SLICE_MS = 20
    const slices = Math.max(1, Math.round(SPREAD_MS / SLICE_MS))
    const written = new Map<string, number>()
    const t0 = Date.now()
    for (let s = 0; s < slices; s++) {
      const from = Math.floor((s * EVENTS) / slices),
        to = Math.floor(((s + 1) * EVENTS) / slices)
      const at = Date.now()
      const events = await runtime.runPromise(
        Effect.forEach(
          Array.from({ length: to - from }, (_, k) => from + k),
          (i) =>
            postEvent(
              "post.created",
              { ...template, id: `post_bench${String(i).padStart(8, "0")}`, createdAt: at, updatedAt: at },
              at
            )
        )
      )
      await runtime.runPromise(Effect.flatMap(EventOutbox, (o) => o.append(events as ReadonlyArray<HeraldEvent>)))
      for (const e of events) written.set(e.id, e.createdAt)
      const next = t0 + (s + 1) * SLICE_MS
      if (next > Date.now()) await sleep(next - Date.now())
    }
    const writtenIn = Date.now() - t0
    while (arrivals.size < EVENTS && Date.now() - t0 < 120_000) await sleep(100)
    const schedulerCpuMs = children.reduce((sum, c) => sum + cpuMs(c.pid), 0) - cpuBefore
    const pending = await runtime
      .runPromise(
        Effect.flatMap(
          SqlClient.SqlClient,
          (sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM webhook_deliveries WHERE status <> 'succeeded'`
        )
      )
      .then((r) => r[0]!.n)

    // Where a delivery's time goes: waiting to be leased (written -> leased) and the request itself.
    const [phases] = await runtime.runPromise(
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) => sql<{ to_lease_p50: number; request_p50: number; request_p99: number }>`
      SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM last_attempt_at - created_at) * 1000)::float8 AS to_lease_p50,
        percentile_disc(0.5) WITHIN GROUP (ORDER BY response_time_ms)::float8 AS request_p50,
        percentile_disc(0.99) WITHIN GROUP (ORDER BY response_time_ms)::float8 AS request_p99
      FROM webhook_deliveries`
      )
    )
    const lags = [...written.entries()]
      .filter(([id]) => arrivals.has(id))
      .map(([id, at]) => arrivals.get(id)! - at)
      .sort((a, b) => a - b)
    const last = Math.max(...arrivals.values())
    const figures = {
      events: EVENTS,
      schedulers: SCHEDULERS,
      delivered: arrivals.size,
      missing: EVENTS - arrivals.size,
      requests,
      repeated_requests: requests - arrivals.size,
      unverified,
      not_finished: pending,
      written_seconds: Number((writtenIn / 1000).toFixed(3)),
      total_seconds: Number(((last - t0) / 1000).toFixed(3)),
      events_per_s: Math.round(arrivals.size / ((last - t0) / 1000)),
      lag_p50_ms: percentile(lags, 50),
      lag_p99_ms: percentile(lags, 99),
      lag_max_ms: lags[lags.length - 1],
      scheduler_cpu_ms_per_event: Number((schedulerCpuMs / Math.max(1, arrivals.size)).toFixed(3)),
      written_to_leased_p50_ms: Math.round(phases!.to_lease_p50),
      request_p50_ms: phases!.request_p50,
      request_p99_ms: phases!.request_p99
    }
    console.log(
      `delivered ${figures.delivered} of ${EVENTS} in ${figures.total_seconds} s (written over ${figures.written_seconds} s): ${figures.events_per_s} events/s, ` +
        `lag p50 ${figures.lag_p50_ms} ms, p99 ${figures.lag_p99_ms} ms, max ${figures.lag_max_ms} ms; ${figures.repeated_requests} repeated requests, ` +
        `${unverified} unverified, scheduler CPU ${figures.scheduler_cpu_ms_per_event} ms per event; written -> leased p50 ${figures.written_to_leased_p50_ms} ms, ` +
        `request p50 ${figures.request_p50_ms} ms, p99 ${figures.request_p99_ms} ms`
    )
    console.log(JSON.stringify(figures))
    return figures
  } finally {
    for (const c of children) c.kill("SIGTERM")
    await Promise.all(children.map(exited))
    server.close()
    await runtime.dispose()
    await db.drop()
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await run()
