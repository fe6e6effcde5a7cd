import { Agent, request } from "node:http"

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
}

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? 0

/**
 * Closed-loop load: `connections` keep-alive connections, each sending the next request when the
 * previous answers, for `seconds` (after `warmupSeconds` that are not counted). Bounded in time.
 */
export const load = async (options: {
  readonly url: string
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
}): Promise<LoadResult> => {
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections })
  const target = new URL(options.url)
  let n = 0
  const one = () =>
    new Promise<{ status: number; ms: number }>((resolve) => {
      const extra = options.headersOf?.(n)
      const body = options.body(n++)
      const started = performance.now()
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
    const until = performance.now() + seconds * 1000
    const started = performance.now()
    await Promise.all(
      Array.from({ length: options.connections }, async () => {
        while (performance.now() < until) {
          const { status, ms } = await one()
          if (!record) continue
          statuses[status] = (statuses[status] ?? 0) + 1
          if (status === options.okStatus) latencies.push(ms)
          else errors++
        }
      })
    )
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
      latencies
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
    latencies
  }
}
