import { Agent, request } from "node:http"
import { setTimeout as sleep } from "node:timers/promises"

export interface LoadResult {
  readonly requests: number
  readonly errors: number
  readonly seconds: number
  readonly rps: number
  readonly p50Ms: number
  readonly p99Ms: number
  readonly statuses: Record<string, number>
  /** Latencies of the successful requests, sorted (so runs can be combined). */
  readonly latencies: ReadonlyArray<number>
  /** Open loop only: requests sent this many ms or more after their intended time (the client fell behind). */
  readonly lateSends: number
}

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? 0

/** How late a send may be before it counts in `lateSends`: the client itself could not keep the rate. */
const LATE_SEND_MS = 5

export interface LoadOptions {
  readonly url: string
  /** Keep-alive connections (closed loop: each sends the next request when the previous answers). */
  readonly connections: number
  readonly seconds: number
  readonly warmupSeconds: number
  readonly headers: Record<string, string>
  readonly body: (n: number) => string
  /** Headers of request n, added to `headers` (e.g. a fresh Idempotency-Key). */
  readonly headersOf?: (n: number) => Record<string, string>
  readonly okStatus: number
  /** Called as the measured part starts and ends (after the warm-up), e.g. to read a process's CPU time. */
  readonly onMeasure?: { readonly start: () => void; readonly end: () => void }
  /**
   * Open loop: requests start at this fixed rate (per second) whatever the answers do, over at most
   * `connections` sockets (the rest wait for one), and each latency counts from the request's intended
   * start. A closed loop sends less while the server is slow, so its p99 leaves out the waiting a
   * steady stream of callers would see (coordinated omission); this one does not.
   */
  readonly ratePerSecond?: number
}

/**
 * Load for `seconds` (after `warmupSeconds` that are not counted): closed loop over `connections`
 * keep-alive connections, or open loop at `ratePerSecond`. Bounded in time (an open loop also waits
 * for the answers of what it sent).
 */
export const load = async (options: LoadOptions): Promise<LoadResult> => {
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections })
  const target = new URL(options.url)
  let n = 0
  /** One request; its latency counts from `intendedAt` (open loop) or from now. */
  const one = (intendedAt?: number) =>
    new Promise<{ status: number; ms: number }>((resolve) => {
      const extra = options.headersOf?.(n)
      const body = options.body(n++)
      const started = intendedAt ?? performance.now()
      const req = request(
        {
          agent,
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          method: "POST",
          headers: { ...options.headers, ...extra, "content-length": Buffer.byteLength(body) }
        },
        (res) => {
          res.resume()
          res.on("end", () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }))
        }
      )
      req.on("error", () => resolve({ status: 0, ms: performance.now() - started }))
      req.end(body)
    })
  const run = async (seconds: number, record: boolean) => {
    const latencies: Array<number> = []
    const statuses: Record<string, number> = {}
    let errors = 0
    let lateSends = 0
    const count = ({ status, ms }: { status: number; ms: number }) => {
      if (!record) return
      statuses[status] = (statuses[status] ?? 0) + 1
      if (status === options.okStatus) latencies.push(ms)
      else errors++
    }
    const started = performance.now()
    const until = started + seconds * 1000
    if (options.ratePerSecond === undefined) {
      await Promise.all(
        Array.from({ length: options.connections }, async () => {
          while (performance.now() < until) count(await one())
        })
      )
    } else {
      // Request i is due at started + i / rate; each wake-up sends every request due by then.
      const interval = 1000 / options.ratePerSecond
      const inFlight: Array<Promise<void>> = []
      for (let i = 0; ; i++) {
        const due = started + i * interval
        if (due >= until) break
        const wait = due - performance.now()
        if (wait > 0) await sleep(wait)
        else if (-wait > LATE_SEND_MS && record) lateSends++
        inFlight.push(one(due).then(count))
      }
      await Promise.all(inFlight)
    }
    const elapsed = (performance.now() - started) / 1000
    latencies.sort((a, b) => a - b)
    return {
      requests: latencies.length,
      errors,
      seconds: elapsed,
      rps: latencies.length / elapsed,
      p50Ms: percentile(latencies, 0.5),
      p99Ms: percentile(latencies, 0.99),
      statuses,
      latencies,
      lateSends
    }
  }
  await run(options.warmupSeconds, false)
  options.onMeasure?.start()
  const result = await run(options.seconds, true)
  options.onMeasure?.end()
  agent.destroy()
  return result
}

/** Several runs against one server as one result: their requests over their summed time. */
export const combine = (runs: ReadonlyArray<LoadResult>): LoadResult => {
  const latencies = runs.flatMap((r) => r.latencies).sort((a, b) => a - b)
  const seconds = runs.reduce((sum, r) => sum + r.seconds, 0)
  const statuses: Record<string, number> = {}
  for (const r of runs)
    for (const [status, n] of Object.entries(r.statuses)) statuses[status] = (statuses[status] ?? 0) + n
  return {
    requests: latencies.length,
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
    seconds,
    rps: latencies.length / seconds,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    statuses,
    latencies,
    lateSends: runs.reduce((sum, r) => sum + r.lateSends, 0)
  }
}
