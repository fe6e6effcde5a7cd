import { performance } from "node:perf_hooks"
import { parseArgs } from "node:util"
import { Effect } from "effect"
import { batchFromCsv, batchFromJson, createBatch } from "../application/usecases/planning/batch.ts"
import { putSchedules } from "../application/usecases/planning/schedules.ts"
import { createPost } from "../application/usecases/posts/create.ts"
import type { Actor } from "../domain/apiKey.ts"
import { weekdays } from "../domain/schedule.ts"
import { freshDatabase, runtimeFor, seedWorkspace } from "../test/scheduler/pg.ts"

/*
 * `npm run bench -- planning`: on PostgreSQL, through the use cases REST and MCP call.
 * 1. A 1,000-row CSV batch (row by row), 2% of its rows refused each for its own reason: time, and the
 *    per-row errors counted by code. The same rows again all-or-nothing (refused as a whole) and as a dry run.
 * 2. A 10,000-post queue fill: 10 batches of 1,000 `queue: true` rows onto one account's half-hourly
 *    schedule (Europe/Berlin, across DST), then single queued creates at the end of the 10,000 queue.
 * Figures only: timings are not assertions.
 */

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== "planning"),
  options: { rows: { type: "string", default: "1000" }, queue: { type: "string", default: "10000" } }
})
const ROWS = Number(values.rows)
const QUEUE = Number(values.queue)

const ms = (start: number) => Math.round(performance.now() - start)
const median = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

/** The CSV: every 50th row is refused, by turns an unknown account, a past time, a skipped local time, an empty text. */
const csvOf = (accountIds: ReadonlyArray<string>, rows: number) => {
  const lines = ["accountIds,content,scheduledFor,local,timeZone,firstComment"]
  const future = new Date(Date.now() + 7 * 86_400_000).toISOString()
  const year = new Date().getUTCFullYear() + 1
  const lastSunday = 31 - new Date(Date.UTC(year, 2, 31)).getUTCDay()
  for (let i = 0; i < rows; i++) {
    const account = accountIds[i % accountIds.length]!
    if (i % 50 === 49) {
      const bad = [
        `acc_unknown${i},"Row ${i + 1}, to nobody",,,,`,
        `${account},"Row ${i + 1}, in the past",2001-01-01T00:00:00Z,,,`,
        `${account},"Row ${i + 1}, at a skipped time",,${year}-03-${lastSunday}T02:30,Europe/Berlin,`,
        `${account},,,,,`
      ]
      lines.push(bad[Math.floor(i / 50) % bad.length]!)
    } else if (i % 3 === 0)
      lines.push(
        `${account},"Row ${i + 1}, local ""quoted""",,${year}-05-01T09:${String(i % 60).padStart(2, "0")},Asia/Kolkata,`
      )
    else lines.push(`${account},"Row ${i + 1}, scheduled",${future},,,https://example.org/${i}`)
  }
  return lines.join("\r\n")
}

const countBy = (codes: ReadonlyArray<string>) =>
  Object.fromEntries([...new Set(codes)].map((c) => [c, codes.filter((x) => x === c).length]))

export const run = async () => {
  const db = await freshDatabase("bench_planning")
  const runtime = runtimeFor(db.url, 20)
  try {
    const { agent, accountIds } = await runtime.runPromise(seedWorkspace(3))
    const csv = csvOf(accountIds, ROWS)
    const batch = (actor: Actor, options: { atomic: boolean; dryRun: boolean }, key: string | null) =>
      runtime.runPromise(
        Effect.flatMap(batchFromCsv(csv, options), (input) => createBatch(actor, input, key)).pipe(
          Effect.catch((e) =>
            Effect.succeed({ refused: e.code, rows: (e.details?.rows as Array<unknown> | undefined)?.length })
          )
        )
      )

    let start = performance.now()
    const dry = (await batch(agent, { atomic: false, dryRun: true }, null)) as any
    const dryMs = ms(start)
    start = performance.now()
    const perRow = (await batch(agent, { atomic: false, dryRun: false }, "bench-csv")) as any
    const perRowMs = ms(start)
    const errors = countBy(perRow.results.filter((r: any) => !r.ok).map((r: any) => r.error.code))
    start = performance.now()
    const replay = (await batch(agent, { atomic: false, dryRun: false }, "bench-csv")) as any
    const replayMs = ms(start)
    start = performance.now()
    const atomic = (await batch(agent, { atomic: true, dryRun: false }, null)) as any
    const atomicMs = ms(start)
    console.log(`CSV batch of ${ROWS} rows on PostgreSQL (3 accounts):`)
    console.log(`  dry run          ${dryMs} ms  (${dry.failed} rows refused)`)
    console.log(
      `  row by row       ${perRowMs} ms  created ${perRow.created}, refused ${perRow.failed}: ${JSON.stringify(errors)}`
    )
    console.log(`  same key again   ${replayMs} ms  replayed ${replay.replayed}, refused ${replay.failed}`)
    console.log(`  all-or-nothing   ${atomicMs} ms  ${atomic.refused} (${atomic.rows} rows listed), nothing stored`)

    // The queue: one account, every half hour of the week in Berlin.
    const [account] = accountIds as [string]
    const slots = weekdays.flatMap((day) =>
      Array.from({ length: 48 }, (_, h) => ({
        day,
        time: `${String(Math.floor(h / 2)).padStart(2, "0")}:${h % 2 ? "30" : "00"}`
      }))
    )
    await runtime.runPromise(
      putSchedules(agent, { schedules: [{ accountIds: [account], timeZone: "Europe/Berlin", slots }] })
    )
    const perBatch: Array<number> = []
    let placed = 0
    let last = ""
    for (let b = 0; b < QUEUE / 1000; b++) {
      const rows = Array.from({ length: 1000 }, (_, i) => ({
        accountIds: [account],
        content: `queued ${b * 1000 + i}`,
        queue: true
      }))
      start = performance.now()
      const result = await runtime.runPromise(createBatch(agent, batchFromJson({ posts: rows }), null))
      perBatch.push(ms(start))
      placed += result.created
      last = result.results.at(-1)?.post?.scheduledFor ?? last
    }
    const singles: Array<number> = []
    for (let i = 0; i < 20; i++) {
      start = performance.now()
      await runtime.runPromise(createPost(agent, { accountIds: [account], content: `single ${i}`, queue: true }, null))
      singles.push(performance.now() - start)
    }
    const fillMs = perBatch.reduce((a, b) => a + b, 0)
    console.log(`Queue fill: ${placed} posts on one account's half-hourly schedule (Europe/Berlin), last slot ${last}`)
    console.log(
      `  10 batches of 1,000: ${fillMs} ms in all (${Math.round((placed / fillMs) * 1000)} posts/s); per batch ${perBatch.join(", ")} ms`
    )
    console.log(
      `  a single queued create behind ${placed}: median ${median(singles).toFixed(1)} ms, max ${Math.max(...singles).toFixed(1)} ms`
    )
    console.log(
      JSON.stringify({
        csvRows: ROWS,
        csvDryRunMs: dryMs,
        csvRowByRowMs: perRowMs,
        csvRefusedRows: perRow.failed,
        csvReplayMs: replayMs,
        csvAtomicMs: atomicMs,
        queueFilled: placed,
        queueFillMs: fillMs,
        queuedCreateMedianMs: Number(median(singles).toFixed(1))
      })
    )
  } finally {
    await runtime.dispose()
    await db.drop()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run()
