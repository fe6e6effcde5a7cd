import type { ChildProcess } from "node:child_process"
import { createServer, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { loadavg } from "node:os"
import { setTimeout as sleep } from "node:timers/promises"
import { Effect, Layer, ManagedRuntime } from "effect"
import * as HttpWebhookSender from "../adapters/webhooks/HttpWebhookSender.ts"
import { EventOutbox } from "../application/ports/EventOutbox.ts"
import { postEvent } from "../application/usecases/webhooks/events.ts"
import { createWebhook } from "../application/usecases/webhooks/manage.ts"
import type { HeraldEvent } from "../domain/events.ts"
import type { Post } from "../domain/post.ts"
import { exited, freshDatabase, pgCore, seedWorkspace, spawnScheduler } from "../test/scheduler/pg.ts"

/*
 * `npm run bench -- webhooks --neighbour`: the normal workspace's lag (event written -> its request reaching the
 * receiver) alone, then beside a neighbour whose 20 endpoints never answer (each try holds its slot until the
 * sender's timeout). Each phase on a fresh database, 2 schedulers, default delivery settings. Target: the normal
 * workspace's p99 beside the neighbour under 2x its p99 alone.
 */

export interface NeighbourOptions {
  readonly events: number
  readonly neighbourEvents: number
  readonly spreadMs: number
  readonly schedulers: number
}

const HANGING_ENDPOINTS = 20
const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!

/** A server that notes when each (event id, path) first arrives; `hang` keeps every request unanswered. */
const receiver = async (hang: boolean) => {
  const arrivals = new Map<string, number>()
  const held: Array<ServerResponse> = []
  const server: Server = createServer((req, res) => {
    req.resume()
    const key = `${String(req.headers["webhook-id"])} ${req.url}`
    if (!arrivals.has(key)) arrivals.set(key, Date.now())
    if (hang) held.push(res)
    else req.on("end", () => res.writeHead(204).end())
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    arrivals,
    url: (path: string) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    close: () => {
      for (const r of held) r.destroy()
      server.closeAllConnections()
      server.close()
    }
  }
}

const template = (workspaceId: string, accountIds: ReadonlyArray<string>): Post => ({
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
  createdBy: { kind: "key", id: "", name: "bench" },
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
})

const lagOf = (
  written: ReadonlyMap<string, number>,
  arrivals: ReadonlyMap<string, number>,
  paths: ReadonlyArray<string>
) => {
  const lags: Array<number> = []
  for (const [id, at] of written)
    for (const path of paths) {
      const came = arrivals.get(`${id} ${path}`)
      if (came !== undefined) lags.push(came - at)
    }
  lags.sort((a, b) => a - b)
  return {
    arrived: lags.length,
    expected: written.size * paths.length,
    p50: percentile(lags, 50),
    p99: percentile(lags, 99)
  }
}

/** One phase: the normal workspace's events, and the neighbour's when `neighbour`; lags of both. */
const phase = async (options: NeighbourOptions, neighbour: boolean) => {
  const db = await freshDatabase("herald_bench_neighbour")
  const runtime = ManagedRuntime.make(Layer.merge(pgCore(db.url, 8), HttpWebhookSender.layer({ allowLoopback: true })))
  const normal = await receiver(false)
  const hanging = await receiver(true)
  const children: Array<ChildProcess> = []
  try {
    const hangingPaths = Array.from({ length: HANGING_ENDPOINTS }, (_, i) => `/hang${i}`)
    const { quiet, noisy } = await runtime.runPromise(
      Effect.gen(function* () {
        const q = yield* seedWorkspace(1)
        yield* createWebhook(q.agent, { url: normal.url("/hooks"), eventTypes: ["post.created"] })
        const n = yield* seedWorkspace(1)
        if (neighbour)
          for (const path of hangingPaths)
            yield* createWebhook(n.agent, { url: hanging.url(path), eventTypes: ["post.created"] })
        return { quiet: template(q.workspaceId, q.accountIds), noisy: template(n.workspaceId, n.accountIds) }
      })
    )
    const env = {
      HERALD_SECRET: "herald test secret",
      HERALD_WEBHOOKS_ALLOW_LOOPBACK: "true",
      HERALD_SWEEPERS: "false"
    }
    for (let i = 0; i < options.schedulers; i++) {
      const child = spawnScheduler(db.url, { ...env, LOG_LEVEL: "Info" }, ["ignore", "pipe", "ignore"])
      children.push(child)
      await new Promise<void>((resolve, reject) => {
        child.stdout?.on("data", (c: Buffer) => (c.toString().includes("scheduler:") ? resolve() : undefined))
        child.once("exit", (code) => reject(new Error(`scheduler exited early (${code})`)))
      })
    }
    await sleep(1_000)
    const written = { quiet: new Map<string, number>(), noisy: new Map<string, number>() }
    const SLICE_MS = 20
    const slices = Math.max(1, Math.round(options.spreadMs / SLICE_MS))
    const t0 = Date.now()
    let n = 0
    for (let s = 0; s < slices; s++) {
      const at = Date.now()
      const share = (total: number) => Math.floor(((s + 1) * total) / slices) - Math.floor((s * total) / slices)
      const make = (post: Post, count: number) =>
        Effect.forEach(Array.from({ length: count }), () =>
          postEvent("post.created", { ...post, id: `post_bench${String(n++).padStart(8, "0")}`, createdAt: at }, at)
        )
      const [q, h] = await runtime.runPromise(
        Effect.all([make(quiet, share(options.events)), make(noisy, neighbour ? share(options.neighbourEvents) : 0)])
      )
      await runtime.runPromise(Effect.flatMap(EventOutbox, (o) => o.append([...q, ...h] as ReadonlyArray<HeraldEvent>)))
      for (const e of q) written.quiet.set(e.id, e.createdAt)
      for (const e of h) written.noisy.set(e.id, e.createdAt)
      const next = t0 + (s + 1) * SLICE_MS
      if (next > Date.now()) await sleep(next - Date.now())
    }
    while (normal.arrivals.size < written.quiet.size && Date.now() - t0 < 120_000) await sleep(100)
    return {
      quiet: lagOf(written.quiet, normal.arrivals, ["/hooks"]),
      noisy: neighbour ? lagOf(written.noisy, hanging.arrivals, hangingPaths) : null
    }
  } finally {
    for (const c of children) c.kill("SIGTERM")
    await Promise.all(children.map(exited))
    normal.close()
    hanging.close()
    await runtime.dispose()
    await db.drop()
  }
}

export const run = async (options: NeighbourOptions) => {
  console.log(
    `webhooks bench, noisy neighbour: the normal workspace's ${options.events} events over ${options.spreadMs} ms, alone, then beside ` +
      `a workspace with ${HANGING_ENDPOINTS} endpoints that never answer (${options.neighbourEvents} events each to all of them); ` +
      `${options.schedulers} schedulers, default delivery settings; load ${loadavg()[0]!.toFixed(1)}`
  )
  const alone = await phase(options, false)
  console.log(
    `alone: normal workspace lag p50 ${alone.quiet.p50} ms, p99 ${alone.quiet.p99} ms (${alone.quiet.arrived}/${alone.quiet.expected})`
  )
  const beside = await phase(options, true)
  console.log(
    `beside the neighbour: normal workspace lag p50 ${beside.quiet.p50} ms, p99 ${beside.quiet.p99} ms (${beside.quiet.arrived}/${beside.quiet.expected}); ` +
      `neighbour's requests reached its endpoints: p50 ${beside.noisy?.p50} ms, p99 ${beside.noisy?.p99} ms (${beside.noisy?.arrived}/${beside.noisy?.expected}, the rest paused or waiting)`
  )
  const ratio =
    alone.quiet.p99 === null || beside.quiet.p99 === null ? null : beside.quiet.p99 / Math.max(1, alone.quiet.p99)
  console.log(
    `normal workspace p99 beside the neighbour / alone: ${ratio?.toFixed(2)} (target < 2); load ${loadavg()[0]!.toFixed(1)}`
  )
  const figures = {
    alone_p50_ms: alone.quiet.p50,
    alone_p99_ms: alone.quiet.p99,
    beside_p50_ms: beside.quiet.p50,
    beside_p99_ms: beside.quiet.p99,
    beside_missing: beside.quiet.expected - beside.quiet.arrived,
    neighbour_p50_ms: beside.noisy?.p50 ?? null,
    neighbour_p99_ms: beside.noisy?.p99 ?? null,
    neighbour_arrived: beside.noisy?.arrived ?? 0,
    p99_ratio: ratio === null ? null : Number(ratio.toFixed(2))
  }
  console.log(JSON.stringify(figures))
  return figures
}
