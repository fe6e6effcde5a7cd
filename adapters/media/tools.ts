import { type ChildProcess, execFile, spawn } from "node:child_process"
import { Effect } from "effect"

/** Output of a finished tool run; a non-zero exit is an answer here, not an exception. */
export interface ToolResult {
  readonly ok: boolean
  readonly stdout: Buffer
  readonly stderr: string
}

const MAX_OUTPUT = 32 * 1024 * 1024

interface Outcome {
  readonly ok: boolean
  readonly code: string | number | null
  readonly stdout: Uint8Array
  readonly stderr: string
}

const settle = (file: string, outcome: Outcome): Effect.Effect<ToolResult> => {
  // A tool that cannot be started at all (missing binary, no permission) is a broken installation.
  if (outcome.code === "ENOENT" || outcome.code === "EACCES")
    return Effect.die(new Error(`Cannot run ${file}: ${outcome.code}`))
  return Effect.succeed({
    ok: outcome.ok,
    stdout: Buffer.from(outcome.stdout.buffer, outcome.stdout.byteOffset, outcome.stdout.byteLength),
    stderr: outcome.stderr
  })
}

const runHere = (file: string, args: ReadonlyArray<string>, timeoutMs: number) =>
  Effect.callback<ToolResult>((resume, signal) => {
    execFile(
      file,
      [...args],
      { encoding: "buffer", maxBuffer: MAX_OUTPUT, timeout: timeoutMs, signal, windowsHide: true },
      (error, stdout, stderr) =>
        resume(
          settle(file, {
            ok: error === null,
            code: (error as NodeJS.ErrnoException | null)?.code ?? null,
            stdout,
            stderr: stderr.toString("utf8")
          })
        )
    )
  })

/*
 * Starting a process from this one costs a fork of all of it: with PGlite's memory that blocks the
 * event loop for 15-25 ms per tool, longer than the tool runs. So tools are started by a small
 * helper process (forked once, on first use), which forks in about a millisecond. One helper per
 * process; it never keeps this process alive and leaves when it goes. Should it die, calls run here.
 */
const helperSource = `
const { execFile } = require("node:child_process")
const running = new Map()
process.on("message", (m) => {
  if (m.cancel !== undefined) return void running.get(m.cancel)?.abort()
  const abort = new AbortController()
  running.set(m.id, abort)
  execFile(m.file, m.args, { encoding: "buffer", maxBuffer: m.maxBuffer, timeout: m.timeoutMs, signal: abort.signal, windowsHide: true }, (error, stdout, stderr) => {
    running.delete(m.id)
    if (process.connected) process.send({ id: m.id, ok: error === null, code: error ? (error.code ?? null) : null, stdout, stderr: stderr.toString("utf8") })
  })
})
process.on("disconnect", () => process.exit(0))
`

interface Helper {
  readonly child: ChildProcess
  readonly pending: Map<number, (outcome: Outcome | null) => void>
}

let helper: Helper | null = null
let nextId = 0

const startHelper = (): Helper | null => {
  try {
    const child = spawn(process.execPath, ["-e", helperSource], {
      stdio: ["ignore", "ignore", "inherit", "ipc"],
      serialization: "advanced",
      windowsHide: true,
      // The helper runs plain JavaScript: no loaders or flags of this process.
      env: { ...process.env, NODE_OPTIONS: "" }
    })
    const started: Helper = { child, pending: new Map() }
    const gone = () => {
      if (helper === started) helper = null
      // Calls it had not answered run here instead.
      for (const resume of started.pending.values()) resume(null)
      started.pending.clear()
    }
    child.on("message", (message: Outcome & { readonly id: number }) => {
      const resume = started.pending.get(message.id)
      started.pending.delete(message.id)
      if (started.pending.size === 0) child.channel?.unref()
      resume?.(message)
    })
    child.on("exit", gone)
    child.on("error", gone)
    child.unref()
    child.channel?.unref()
    return started
  } catch {
    return null
  }
}

/** Runs a tool to completion with a deadline; interrupting the effect kills the process. */
export const runTool = (file: string, args: ReadonlyArray<string>, timeoutMs: number): Effect.Effect<ToolResult> =>
  Effect.suspend(() => {
    helper ??= startHelper()
    const current = helper
    if (current === null || !current.child.connected) return runHere(file, args, timeoutMs)
    return Effect.flatMap(
      Effect.callback<Outcome | null>((resume) => {
        const id = nextId++
        current.pending.set(id, (outcome) => resume(Effect.succeed(outcome)))
        // While a call waits, the channel keeps this process alive like a child of its own would.
        current.child.channel?.ref()
        current.child.send({ id, file, args: [...args], timeoutMs, maxBuffer: MAX_OUTPUT }, (error) => {
          if (error !== null && current.pending.delete(id)) resume(Effect.succeed(null))
        })
        return Effect.sync(() => {
          if (current.pending.delete(id) && current.child.connected) current.child.send({ cancel: id }, () => undefined)
          if (current.pending.size === 0) current.child.channel?.unref()
        })
      }),
      (outcome) => (outcome === null ? runHere(file, args, timeoutMs) : settle(file, outcome))
    )
  })

/** The first meaningful line of a tool's complaint, for the caller's error message. */
export const firstLine = (text: string): string =>
  text
    .split("\n")
    .map((l) => l.trim())
    .find((l) => l !== "")
    ?.slice(0, 200) ?? "no output"
