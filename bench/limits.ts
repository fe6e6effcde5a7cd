import { Effect, Exit, Layer, Redacted } from "effect"
import { PgClient } from "@effect/sql-pg"
import { SqlClient } from "effect/sql"
import * as MemoryRateLimiter from "../adapters/memory/MemoryRateLimiter.ts"
import * as MemoryState from "../adapters/memory/MemoryState.ts"
import * as PostgresRateLimiter from "../adapters/postgres/PostgresRateLimiter.ts"
import { defaultRequestLimits, type RequestLimits } from "../application/config.ts"
import { RateLimiter } from "../application/ports/RateLimiter.ts"
import * as RequestLimiter from "../application/requestLimiter.ts"
import type { Actor } from "../domain/apiKey.ts"
import { createDatabaseForProcesses } from "../test/support/postgres.ts"

/*
 * `npm run bench -- limits`: what the request limits cost a request (application/requestLimiter.ts),
 * in this process, without HTTP. Figures:
 * - admitNow: the count as the fast path and the router's key scheme make it, the key's and the
 *   workspace's budgets held in memory (what every request pays); refused: the same for a spent
 *   budget (no database call); and `admit`, the effect form (sessions, MCP), net of an empty effect;
 * - lease: one lease from the shared count on PostgreSQL (the upsert), alone and 64 at once;
 * - admit on PostgreSQL: 1,000 keys (each in its own workspace) making 600 requests each at the
 *   default limits and lease (60 a key, 120 a workspace), one after another: wall time and this
 *   process's CPU per request, leases included.
 * Needs PostgreSQL (TEST_DATABASE_URL, as the tests). BENCH_ADMITS sets the in-memory loop's length.
 */

const ADMITS = Number(process.env.BENCH_ADMITS ?? 2_000_000)
const key = (n: number): Actor => ({
  kind: "key",
  workspaceId: `ws_${n}`,
  keyId: `key_${n}`,
  name: "bench",
  requireApproval: false
})

const timed = async (effect: Effect.Effect<unknown, unknown>) => {
  const started = process.hrtime.bigint()
  const cpu = process.cpuUsage()
  await Effect.runPromise(effect)
  const used = process.cpuUsage(cpu)
  return { ns: Number(process.hrtime.bigint() - started), cpuUs: used.user + used.system }
}

const limiterOn = <E>(rates: Layer.Layer<RateLimiter, E>, limits: RequestLimits) =>
  RequestLimiter.layer(limits).pipe(Layer.provide(rates))

/** `n` calls of `body`, in nanoseconds a call (the second of two runs: the first warms the JIT). */
const perCall = (n: number, body: () => unknown) => {
  let ns = 0
  for (let run = 0; run < 2; run++) {
    const started = process.hrtime.bigint()
    for (let i = 0; i < n; i++) body()
    ns = Number(process.hrtime.bigint() - started) / n
  }
  return ns
}

const inMemory = async () => {
  const memory = MemoryRateLimiter.layer.pipe(Layer.provide(MemoryState.layer))
  const build = (limits: RequestLimits) => Effect.runPromise(RequestLimiter.make(limits).pipe(Effect.provide(memory)))
  const actor = key(1)
  const roomy = await build({ perKeyPerMinute: 1e12, perWorkspacePerMinute: 1e12, leasePercent: 10 })
  await Effect.runPromise(Effect.exit(roomy.admit(actor))) // the first lease
  // A yardstick that shares the machine's state: a clock read and two map reads, as the count does.
  const yardstick = new Map([
    ["key_1", { tokens: 1 }],
    ["ws_1", { tokens: 1 }]
  ])
  const referenceNs = perCall(
    ADMITS,
    () => (Date.now() % 60_000) + yardstick.get("key_1")!.tokens + yardstick.get("ws_1")!.tokens
  )
  let leased = 0
  const admitNs = perCall(ADMITS, () => (roomy.admitNow(actor) === undefined ? undefined : leased++))
  const tight = await build({ ...defaultRequestLimits })
  for (let i = 0; i < 1000; i++) await Effect.runPromise(Effect.exit(tight.admit(actor))) // spends the key's minute
  // A minute's edge in the loop admits a new minute's 600 among the refusals: too few to matter.
  const refuseNs = perCall(ADMITS, () => tight.admitNow(actor))
  // The effect form (a session's request, MCP): an effect of its own, net of an empty effect.
  const loop = (body: () => Effect.Effect<unknown, unknown>) =>
    Effect.gen(function* () {
      for (let i = 0; i < ADMITS; i++) yield* Effect.exit(body())
    })
  await timed(loop(() => roomy.admit(actor)))
  const empty = await timed(loop(() => Effect.void))
  const effectForm = await timed(loop(() => roomy.admit(actor)))
  if (leased > 0) throw new Error("the roomy budget leased again: the figure is not the in-memory count alone")
  return { admitNs, refuseNs, referenceNs, admitEffectNs: (effectForm.ns - empty.ns) / ADMITS }
}

const onPostgres = async () => {
  const db = await createDatabaseForProcesses({ prefix: "herald_bench_limits" })
  try {
    const sql = PgClient.layer({ url: Redacted.make(db.url), maxConnections: 10 })
    const rates = PostgresRateLimiter.layer.pipe(Layer.provide(sql))
    const leases = await Effect.runPromise(
      Effect.gen(function* () {
        const limiter = yield* RateLimiter
        const sql = yield* SqlClient.SqlClient
        const now = Date.now()
        for (let i = 0; i < 200; i++) yield* sql`SELECT 1`
        const select = yield* Effect.promise(() =>
          timed(
            Effect.gen(function* () {
              for (let i = 0; i < 2000; i++) yield* sql`SELECT 1`
            }).pipe(Effect.provideService(SqlClient.SqlClient, sql))
          )
        )
        for (let i = 0; i < 200; i++) yield* limiter.take(`warm:${i % 20}`, 1e9, 60_000, now, 60)
        const one = yield* Effect.promise(() =>
          timed(
            Effect.gen(function* () {
              for (let i = 0; i < 2000; i++) yield* limiter.take(`seq:${i % 100}`, 1e9, 60_000, now, 60)
            }).pipe(Effect.provideService(RateLimiter, limiter))
          )
        )
        const many = yield* Effect.promise(() =>
          timed(
            Effect.forEach(
              Array.from({ length: 6400 }, (_, i) => i),
              (i) => limiter.take(`par:${i % 1000}`, 1e9, 60_000, now, 60),
              { concurrency: 64 }
            )
          )
        )
        return {
          leaseMs: one.ns / 2000 / 1e6,
          selectMs: select.ns / 2000 / 1e6,
          leasesPerSecond: 6400 / (many.ns / 1e9)
        }
      }).pipe(Effect.provide(Layer.merge(rates, sql)))
    )
    const KEYS = 1000
    const PER_KEY = defaultRequestLimits.perKeyPerMinute
    let refusals = 0
    const admits = await timed(
      Effect.gen(function* () {
        const limiter = yield* RequestLimiter.RequestLimiter
        for (let k = 0; k < KEYS; k++) {
          const actor = key(k)
          for (let i = 0; i < PER_KEY; i++) {
            const pending = limiter.admitNow(actor)
            if (pending !== undefined && Exit.isFailure(yield* Effect.exit(pending))) refusals++
          }
        }
      }).pipe(Effect.provide(limiterOn(rates, defaultRequestLimits)))
    )
    const requests = KEYS * PER_KEY
    return { ...leases, admitUs: admits.ns / requests / 1e3, admitCpuUs: admits.cpuUs / requests, refusals }
  } finally {
    await db.drop()
  }
}

export const run = async () => {
  const memory = await inMemory()
  console.log(
    `in memory (${ADMITS} calls each): admitNow ${memory.admitNs.toFixed(0)} ns a request (key and workspace ` +
      `budgets held), refused ${memory.refuseNs.toFixed(0)} ns; admit as an effect of its own ` +
      `${memory.admitEffectNs.toFixed(0)} ns more than an empty effect; yardstick (a clock read and two map ` +
      `reads) ${memory.referenceNs.toFixed(0)} ns`
  )
  const pg = await onPostgres()
  console.log(
    `PostgreSQL: a lease ${pg.leaseMs.toFixed(3)} ms alone (SELECT 1: ${pg.selectMs.toFixed(3)} ms), ${pg.leasesPerSecond.toFixed(0)} leases/s at 64 at once; ` +
      `600 requests x 1,000 keys at the default limits: ${pg.admitUs.toFixed(2)} µs a request wall, ` +
      `${pg.admitCpuUs.toFixed(2)} µs CPU (leases included), ${pg.refusals} refused`
  )
  const figures = {
    admitNs: Math.round(memory.admitNs),
    refuseNs: Math.round(memory.refuseNs),
    admitEffectNs: Math.round(memory.admitEffectNs),
    yardstickNs: Math.round(memory.referenceNs),
    leaseMs: Number(pg.leaseMs.toFixed(3)),
    selectMs: Number(pg.selectMs.toFixed(3)),
    leasesPerSecond: Math.round(pg.leasesPerSecond),
    admitOnPostgresUs: Number(pg.admitUs.toFixed(2)),
    admitOnPostgresCpuUs: Number(pg.admitCpuUs.toFixed(2))
  }
  console.log(JSON.stringify(figures))
  return figures
}
