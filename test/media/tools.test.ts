import { readdirSync, readFileSync } from "node:fs"
import { Duration, Effect, Exit } from "effect"
import { describe, expect, it } from "vitest"
import { runTool } from "../../adapters/media/tools.ts"

/** Processes whose command line is exactly `args` (read from /proc, so nothing is signalled). */
const running = (args: ReadonlyArray<string>) =>
  readdirSync("/proc")
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        return (
          readFileSync(`/proc/${p}/cmdline`, "utf8")
            .split("\0")
            .filter((a) => a !== "")
            .join(" ") === args.join(" ")
        )
      } catch {
        return false
      }
    })

describe("tools run by the probe's helper process", () => {
  it("gives stdout as bytes, and a failing exit as an answer with its complaint", async () => {
    const ok = await Effect.runPromise(runTool("/bin/sh", ["-c", "printf 'a\\000b'"], 5000))
    expect(ok.ok).toBe(true)
    expect([...ok.stdout]).toEqual([97, 0, 98])
    const bad = await Effect.runPromise(runTool("/bin/sh", ["-c", "echo nope >&2; exit 3"], 5000))
    expect(bad).toMatchObject({ ok: false, stderr: "nope\n" })
  })

  it("are started by the helper, not by this process", async () => {
    const parent = Number((await Effect.runPromise(runTool("/bin/sh", ["-c", "echo $PPID"], 5000))).stdout.toString())
    expect(parent).not.toBe(process.pid)
    expect(readFileSync(`/proc/${parent}/cmdline`, "utf8")).toContain("node")
  })

  it("many at once each get their own answer", async () => {
    const results = await Effect.runPromise(
      Effect.all(
        Array.from({ length: 12 }, (_, i) => runTool("/bin/echo", [`n${i}`], 5000)),
        { concurrency: "unbounded" }
      )
    )
    expect(results.map((r) => r.stdout.toString().trim())).toEqual(Array.from({ length: 12 }, (_, i) => `n${i}`))
  })

  it("a tool that cannot be started is a defect", async () => {
    const exit = await Effect.runPromise(Effect.exit(runTool("/nonexistent/ffprobe", [], 5000)))
    expect(Exit.isFailure(exit) && exit.cause.reasons[0]._tag).toBe("Die")
  })

  it("the deadline, or interrupting the effect, ends the tool's process", async () => {
    const slow = await Effect.runPromise(runTool("/bin/sleep", ["30.1"], 200))
    expect(slow.ok).toBe(false)
    expect(running(["/bin/sleep", "30.1"])).toEqual([])
    const exit = await Effect.runPromise(
      Effect.exit(Effect.timeout(runTool("/bin/sleep", ["30.2"], 60_000), Duration.millis(200)))
    )
    expect(Exit.isFailure(exit)).toBe(true)
    await new Promise((r) => setTimeout(r, 300))
    expect(running(["/bin/sleep", "30.2"])).toEqual([])
  })
})
