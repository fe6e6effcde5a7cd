import { execFile } from "node:child_process"
import { Effect } from "effect"

/** Output of a finished tool run; a non-zero exit is an answer here, not an exception. */
export interface ToolResult {
  readonly ok: boolean
  readonly stdout: Buffer
  readonly stderr: string
}

/** Runs a tool to completion with a deadline; interrupting the effect kills the process. */
export const runTool = (file: string, args: ReadonlyArray<string>, timeoutMs: number): Effect.Effect<ToolResult> =>
  Effect.callback<ToolResult>((resume, signal) => {
    execFile(file, [...args], { encoding: "buffer", maxBuffer: 32 * 1024 * 1024, timeout: timeoutMs, signal, windowsHide: true }, (error, stdout, stderr) => {
      // A tool that cannot be started at all (missing binary, no permission) is a broken installation.
      const code = (error as NodeJS.ErrnoException | null)?.code
      if (code === "ENOENT" || code === "EACCES") return resume(Effect.die(new Error(`Cannot run ${file}: ${code}`)))
      resume(Effect.succeed({ ok: error === null, stdout, stderr: stderr.toString("utf8") }))
    })
  })

/** The first meaningful line of a tool's complaint, for the caller's error message. */
export const firstLine = (text: string): string =>
  text.split("\n").map((l) => l.trim()).find((l) => l !== "")?.slice(0, 200) ?? "no output"
