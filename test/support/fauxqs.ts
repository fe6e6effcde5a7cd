import { type ChildProcess, spawn } from "node:child_process"
import { once } from "node:events"
import { fileURLToPath } from "node:url"
import { setTimeout as sleep } from "node:timers/promises"
import { Effect } from "effect"
import { freePort } from "./freePort.ts"

/** A real S3-compatible server (fauxqs) in its own process, on a free port. */
export interface Fauxqs {
  readonly endpoint: string
  readonly stop: () => Promise<void>
}

// The package exports only its library entry, so the CLI is found by path.
const cli = () => fileURLToPath(new URL("../../node_modules/fauxqs/dist/cli.js", import.meta.url))

export const startFauxqs = async (): Promise<Fauxqs> => {
  const port = await freePort()
  const child: ChildProcess = spawn(process.execPath, [cli()], {
    env: { ...process.env, FAUXQS_PORT: String(port), FAUXQS_HOST: "127.0.0.1", FAUXQS_LOGGER: "false" },
    stdio: ["ignore", "ignore", "pipe"]
  })
  let stderr = ""
  child.stderr?.on("data", (c: Buffer) => (stderr += c.toString()))
  const endpoint = `http://127.0.0.1:${port}`
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    child.kill("SIGTERM")
    await Promise.race([once(child, "exit"), sleep(3000).then(() => child.kill("SIGKILL"))])
  }
  const deadline = Date.now() + 15_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`fauxqs exited (${child.exitCode}): ${stderr}`)
    const healthy = await fetch(`${endpoint}/health`).then(
      (r) => r.ok,
      () => false
    )
    if (healthy) return { endpoint, stop }
    await sleep(100)
  }
  await stop()
  throw new Error(`fauxqs did not become healthy on ${endpoint}: ${stderr}`)
}

/** The server for the length of a scope (a layer's or a test's). */
export const fauxqs = Effect.acquireRelease(Effect.promise(startFauxqs), (server) => Effect.promise(server.stop))
