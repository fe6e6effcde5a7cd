import { execFileSync, spawn, type ChildProcess } from "node:child_process"
import { once } from "node:events"
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { request } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { setTimeout as sleep } from "node:timers/promises"
import { fileURLToPath, pathToFileURL } from "node:url"
import ffmpeg from "@ffmpeg-installer/ffmpeg"
import { freePort } from "../test/support/freePort.ts"
import { nodeArgsOf, nodeEnvOf } from "./npmScript.ts"
import { cpuOf } from "./proc.ts"

/*
 * `npm run bench -- media`: a 100 MB multipart upload (a valid MP4 padded with a `free` box) through
 * the embedded HTTP host (`npm start`: PGlite, local files, sharp/ffprobe) in its own process, next
 * to a bare node:http sink that only counts the same bytes. Figures: throughput of each (every run
 * printed, then the median of RUNS, alternating) and the server's peak RSS growth over its settled RSS
 * (VmHWM reset through clear_refs, or sampled). Herald's stored files are kept until the end (the
 * sink stores nothing, so there is nothing of its to delete alike). Targets: growth <= 64 MB,
 * throughput >= 50% of the sink.
 */

const SIZE = 100_000_000
const RUNS = 5
const root = fileURLToPath(new URL("..", import.meta.url))

// HEAP_MB keeps that much live data in the sink, to show what a real server's heap costs by itself.
const sinkScript = `
import { createServer } from "node:http"
globalThis.keep = Array.from({ length: Number(process.env.HEAP_MB ?? 0) * 10000 }, (_, i) => ({ i, s: "v" + i, a: [i] }))
createServer((req, res) => {
  let bytes = 0
  req.on("data", (c) => (bytes += c.length))
  req.on("end", () => res.end(JSON.stringify({ bytes })))
}).listen(Number(process.env.PORT), "127.0.0.1", () => console.log("listening"))
`

/** A 2 s test clip, then a `free` box (which players and ffprobe skip) up to `size` bytes. */
const paddedMp4 = (dir: string, size: number): Buffer => {
  const clipPath = join(dir, "clip.mp4")
  execFileSync(ffmpeg.path, [
    "-v",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    "testsrc=size=640x360:rate=25",
    "-t",
    "2",
    "-pix_fmt",
    "yuv420p",
    "-c:v",
    "libx264",
    "-preset",
    "ultrafast",
    clipPath
  ])
  const clip = readFileSync(clipPath)
  const file = Buffer.allocUnsafe(size)
  clip.copy(file)
  const box = size - clip.length
  file.writeUInt32BE(box, clip.length)
  file.write("free", clip.length + 4, "latin1")
  // Incompressible filler, so nothing along the way can shortcut it.
  const noise = Buffer.alloc(1 << 20)
  for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24
  for (let at = clip.length + 8; at < size; at += noise.length)
    noise.copy(file, at, 0, Math.min(noise.length, size - at))
  return file
}

const status = (pid: number) => {
  const text = readFileSync(`/proc/${pid}/status`, "utf8")
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(text)?.[1] ?? 0) * 1024
  return { rss: kb("VmRSS"), hwm: kb("VmHWM") }
}

const childrenOf = (pid: number): Array<number> => {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
      .split(" ")
      .filter((p) => p !== "")
      .map(Number)
  } catch {
    return []
  }
}

/** The server's own CPU, and that of every process under it (the probe's tools, run by a helper process). */
const cpu = (pid: number) => {
  const tree = (p: number): number => {
    try {
      const c = cpuOf(p)
      return c.own + c.children + childrenOf(p).reduce((n, child) => n + tree(child), 0)
    } catch {
      return 0 // gone meanwhile
    }
  }
  const c = cpuOf(pid)
  return { own: c.own, children: c.children + childrenOf(pid).reduce((n, child) => n + tree(child), 0) }
}

/** Resets the kernel's peak-RSS mark; false where /proc does not allow it (then sampling decides). */
const resetPeak = (pid: number) => {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5")
    return true
  } catch {
    return false
  }
}

/** Peak RSS growth of `pid` while `work` runs, over its RSS just before. */
const measure = async <A>(pid: number, work: () => Promise<A>) => {
  // Earlier runs' dirty pages are flushed first, so their writeback does not slow this one.
  execFileSync("sync")
  await sleep(300)
  const before = status(pid).rss
  const cpuBefore = cpu(pid)
  const kernel = resetPeak(pid)
  let sampled = before
  const timer = setInterval(() => (sampled = Math.max(sampled, status(pid).rss)), 5)
  const t0 = performance.now()
  const result = await work()
  const ms = performance.now() - t0
  clearInterval(timer)
  const peak = Math.max(sampled, kernel ? status(pid).hwm : 0)
  const cpuAfter = cpu(pid)
  return {
    result,
    ms,
    before,
    growth: peak - before,
    cpuMs: cpuAfter.own - cpuBefore.own,
    toolsCpuMs: cpuAfter.children - cpuBefore.children
  }
}

/** Sends the parts; `afterBodyMs` is how long the answer took once the last byte was written. */
const post = (url: string, headers: Record<string, string>, parts: ReadonlyArray<Buffer>) =>
  new Promise<{ status: number; body: string; afterBodyMs: number }>((resolve, reject) => {
    const length = parts.reduce((n, p) => n + p.length, 0)
    let sentAt = 0
    const req = request(url, { method: "POST", headers: { ...headers, "content-length": String(length) } }, (res) => {
      let body = ""
      res.on("data", (c) => (body += c))
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body, afterBodyMs: performance.now() - sentAt }))
    })
    req.on("finish", () => (sentAt = performance.now()))
    req.on("error", reject)
    const slices: Array<Buffer> = []
    for (const part of parts)
      for (let at = 0; at < part.length; at += 256 * 1024) slices.push(part.subarray(at, at + 256 * 1024))
    let i = 0
    const pump = () => {
      while (i < slices.length) if (!req.write(slices[i++])) return void req.once("drain", pump)
      req.end()
    }
    pump()
  })

const multipart = (file: Buffer) => {
  const boundary = "----heraldbench7c1f"
  return {
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
    parts: [
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.mp4"\r\nContent-Type: video/mp4\r\n\r\n`
      ),
      file,
      Buffer.from(`\r\n--${boundary}--\r\n`)
    ]
  }
}

const start = async (
  args: ReadonlyArray<string>,
  env: Record<string, string>,
  ready: (port: number) => Promise<boolean>,
  stdout: "ignore" | "inherit" = "ignore"
) => {
  const port = await freePort()
  const child = spawn(process.execPath, [...args], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ["ignore", stdout, "inherit"]
  })
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early (${child.exitCode})`)
    if (await ready(port).catch(() => false)) return { child, port }
    await sleep(200)
  }
  child.kill()
  throw new Error("server did not start")
}

const stop = async (child: ChildProcess) => {
  if (child.exitCode !== null) return
  child.kill("SIGTERM")
  await Promise.race([once(child, "exit"), sleep(5000).then(() => child.kill("SIGKILL"))])
}

const median = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const mb = (bytes: number) => Math.round((bytes / 1e6) * 10) / 10

export const run = async () => {
  const dir = mkdtempSync(join(tmpdir(), "herald-bench-media-"))
  const children: Array<ChildProcess> = []
  try {
    const file = paddedMp4(dir, SIZE)
    const body = multipart(file)
    const small = multipart(paddedMp4(dir, 1_000_000))
    console.log(`media bench: ${mb(SIZE)} MB multipart upload, ${RUNS} runs each (node ${process.version})`)

    const sinkReady = async (port: number) =>
      (await post(`http://127.0.0.1:${port}/`, {}, [Buffer.from("x")])).status === 200
    const sink = await start(["--input-type=module", "-e", sinkScript], {}, sinkReady)
    children.push(sink.child)
    const heavySink = await start(["--input-type=module", "-e", sinkScript], { HEAP_MB: "85" }, sinkReady)
    children.push(heavySink.child)
    const dataDir = join(dir, "data")
    // BENCH_PROFILE_DIR=<dir> writes a V8 CPU profile of the Herald process there (open in Chrome DevTools);
    // BENCH_HERALD_FLAGS="--trace-gc ..." passes node flags to it and shows its output.
    const profile = process.env.BENCH_PROFILE_DIR
      ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`]
      : []
    const flags = (process.env.BENCH_HERALD_FLAGS ?? "").split(" ").filter((f) => f !== "")
    const herald = await start(
      [...profile, ...flags, ...nodeArgsOf("start")],
      { ...nodeEnvOf("start"), HERALD_DATA_DIR: dataDir, HERALD_PUBLIC_URL: "http://127.0.0.1" },
      async (port) => (await fetch(`http://127.0.0.1:${port}/api/v1/openapi.json`)).ok,
      flags.length > 0 ? "inherit" : "ignore"
    )
    children.push(herald.child)
    const api = `http://127.0.0.1:${herald.port}/api/v1`
    const signup = await fetch(`${api}/signup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "bench@herald-customer.org" })
    })
    const { apiKey } = (await signup.json()) as { apiKey: string }
    const auth = { authorization: `Bearer ${apiKey}` }
    // A small upload to each first: modules, sharp, the tools and the JIT are warm before anything is measured.
    await post(`http://127.0.0.1:${sink.port}/`, small.headers, small.parts)
    await post(`http://127.0.0.1:${heavySink.port}/`, small.headers, small.parts)
    const warm = await post(`${api}/media`, { ...auth, ...small.headers }, small.parts)
    if (warm.status !== 201) throw new Error(`warm-up upload failed: ${warm.status} ${warm.body}`)

    // Runs alternate, so load from anything else on the machine falls on both alike.
    type Run = Awaited<ReturnType<typeof measure<{ status: number; body: string; afterBodyMs: number }>>>
    const sinkRuns: Array<Run> = []
    const heavyRuns: Array<Run> = []
    const heraldRuns: Array<Run> = []
    for (let i = 0; i < RUNS; i++) {
      sinkRuns.push(
        await measure(sink.child.pid!, () => post(`http://127.0.0.1:${sink.port}/`, body.headers, body.parts))
      )
      heavyRuns.push(
        await measure(heavySink.child.pid!, () => post(`http://127.0.0.1:${heavySink.port}/`, body.headers, body.parts))
      )
      const m = await measure(herald.child.pid!, () => post(`${api}/media`, { ...auth, ...body.headers }, body.parts))
      if (m.result.status !== 201) throw new Error(`upload failed: ${m.result.status} ${m.result.body}`)
      const media = (JSON.parse(m.result.body) as { media: { sizeBytes: number; url: string } }).media
      if (media.sizeBytes !== SIZE) throw new Error(`stored ${media.sizeBytes} bytes, sent ${SIZE}`)
      heraldRuns.push(m)
      // The stored files stay until the end, as the sink keeps nothing to delete: deleting Herald's
      // between runs would spare it the page-cache growth that slows this VM's later writes.
      const stored = join(dataDir, "media", new URL(media.url).pathname.replace(/^\/files\//, ""))
      if (!existsSync(stored)) throw new Error(`no stored file at ${stored}`)
      const run = (r: { ms: number }) => mb((SIZE / r.ms) * 1000)
      console.log(
        `run ${i + 1}: sink ${run(sinkRuns[i]!)} MB/s, herald ${run(m)} MB/s (ratio ${(sinkRuns[i]!.ms / m.ms).toFixed(2)}, RSS growth ${mb(m.growth)} MB), sink with 85 MB heap ${run(heavyRuns[i]!)} MB/s`
      )
    }
    for (const child of children) await stop(child)

    const sinkMs = median(sinkRuns.map((r) => r.ms))
    const heraldMs = median(heraldRuns.map((r) => r.ms))
    const heavyMs = median(heavyRuns.map((r) => r.ms))
    const ratios = heraldRuns.map((r, i) => sinkRuns[i]!.ms / r.ms)
    const figures = {
      throughput_ratio_min: Math.round(Math.min(...ratios) * 100) / 100,
      throughput_ratio_max: Math.round(Math.max(...ratios) * 100) / 100,
      sink_mb_per_s: mb((SIZE / sinkMs) * 1000),
      herald_mb_per_s: mb((SIZE / heraldMs) * 1000),
      throughput_ratio: Math.round((sinkMs / heraldMs) * 100) / 100,
      herald_upload_ms: Math.round(heraldMs),
      herald_after_body_ms: Math.round(median(heraldRuns.map((r) => r.result.afterBodyMs))),
      sink_upload_ms: Math.round(sinkMs),
      herald_cpu_ms: Math.round(median(heraldRuns.map((r) => r.cpuMs))),
      herald_tools_cpu_ms: Math.round(median(heraldRuns.map((r) => r.toolsCpuMs))),
      sink_cpu_ms: Math.round(median(sinkRuns.map((r) => r.cpuMs))),
      heavy_sink_mb_per_s: mb((SIZE / heavyMs) * 1000),
      heavy_sink_cpu_ms: Math.round(median(heavyRuns.map((r) => r.cpuMs))),
      herald_rss_growth_mb: mb(Math.max(...heraldRuns.map((r) => r.growth))),
      herald_rss_growth_first_mb: mb(heraldRuns[0].growth),
      herald_rss_before_mb: mb(heraldRuns[0].before),
      sink_rss_growth_mb: mb(Math.max(...sinkRuns.map((r) => r.growth)))
    }
    console.log(
      `sink:   ${figures.sink_mb_per_s} MB/s (${figures.sink_upload_ms} ms), peak RSS growth ${figures.sink_rss_growth_mb} MB`
    )
    console.log(
      `herald: ${figures.herald_mb_per_s} MB/s (${figures.herald_upload_ms} ms: stored, probed, previewed; ${figures.herald_after_body_ms} ms of it after the last byte was sent), peak RSS growth ${figures.herald_rss_growth_mb} MB (first run ${figures.herald_rss_growth_first_mb} MB, over ${figures.herald_rss_before_mb} MB settled)`
    )
    console.log(
      `for context, the sink holding 85 MB of live heap (herald's size): ${figures.heavy_sink_mb_per_s} MB/s, cpu ${figures.heavy_sink_cpu_ms} ms (node frees socket buffers in full GCs here)`
    )
    console.log(
      `cpu per upload: herald ${figures.herald_cpu_ms} ms (+ ${figures.herald_tools_cpu_ms} ms in ffprobe/ffmpeg), sink ${figures.sink_cpu_ms} ms`
    )
    console.log(
      `targets: RSS growth <= 64 MB: ${figures.herald_rss_growth_mb <= 64 ? "met" : "MISSED"}; throughput >= 50% of the sink: ${figures.throughput_ratio >= 0.5 ? "met" : "MISSED"} (median ${Math.round(figures.throughput_ratio * 100)}%, runs ${Math.round(figures.throughput_ratio_min * 100)}-${Math.round(figures.throughput_ratio_max * 100)}%)`
    )
    console.log(JSON.stringify(figures))
    return figures
  } finally {
    for (const child of children) await stop(child)
    rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await run()
