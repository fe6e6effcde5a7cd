import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises"
import { createConnection, createServer, type Socket } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Layer } from "effect"
import type { CommandServices, Outcome } from "./commands.ts"

/*
 * Operator commands for a host that holds the embedded database: PGlite takes one process and its
 * socket one client connection, so `npm run herald` sends its arguments to the running host, which
 * runs the command on its own connection and answers with the outcome. The host listens on a unix
 * socket in a private (0700) temporary directory, so only its own user reaches it, and names it in
 * <data dir>/operator.json (0600) with its pid. One request per connection: a line of JSON
 * {"argv": [...]}, answered with a line of JSON {exitCode, stdout, stderr}.
 */

const pointerOf = (dataDir: string) => join(dataDir, "operator.json")
const MAX_REQUEST_BYTES = 64 * 1024

const readPointer = (dataDir: string) =>
  readFile(pointerOf(dataDir), "utf8").then(
    (text) => JSON.parse(text) as { pid?: unknown; socket?: unknown },
    () => null
  )

const readLine = (socket: Socket) =>
  new Promise<string>((resolve, reject) => {
    let text = ""
    socket.setEncoding("utf8")
    socket.on("data", (chunk: string) => {
      text += chunk
      const end = text.indexOf("\n")
      if (end >= 0) resolve(text.slice(0, end))
      else if (text.length > MAX_REQUEST_BYTES) reject(new Error("request too large"))
    })
    socket.on("end", () => reject(new Error("connection closed before a full line")))
    socket.on("error", reject)
  })

const answer = async (line: string, run: (argv: ReadonlyArray<string>) => Promise<Outcome>): Promise<Outcome> => {
  let argv: unknown
  try {
    argv = (JSON.parse(line) as { argv?: unknown }).argv
  } catch {
    argv = undefined
  }
  if (!Array.isArray(argv) || !argv.every((a) => typeof a === "string"))
    return { exitCode: 2, stdout: "", stderr: "error: the request to the host was malformed.\n" }
  return run(argv)
}

/** The host's side: serves operator commands for the life of the layer. */
export const layer = (dataDir: string) =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      const services = yield* Effect.context<CommandServices>()
      const runIn = Effect.runPromiseWith(services)
      const run = async (argv: ReadonlyArray<string>): Promise<Outcome> => {
        // Loaded on the first command, not with the host.
        const commands = await import("./commands.ts")
        const parsed = commands.parse(argv)
        return parsed._tag === "Done" ? parsed.outcome : runIn(commands.run(parsed))
      }
      const server = createServer((socket) => {
        readLine(socket)
          .then((line) => answer(line, run))
          .catch((error: unknown) => ({
            exitCode: 1,
            stdout: "",
            stderr: `error: ${error instanceof Error ? error.message : String(error)}\n`
          }))
          .then(
            (outcome) => socket.end(`${JSON.stringify(outcome)}\n`),
            () => socket.destroy()
          )
      })
      yield* Effect.acquireRelease(
        Effect.promise(async () => {
          const dir = await mkdtemp(join(tmpdir(), "herald-operator-"))
          const path = join(dir, "operator.sock")
          await new Promise<void>((resolve, reject) => server.once("error", reject).listen(path, resolve))
          await writeFile(pointerOf(dataDir), JSON.stringify({ pid: process.pid, socket: path }), { mode: 0o600 })
          return dir
        }),
        (dir) =>
          Effect.promise(async () => {
            await new Promise((resolve) => server.close(resolve))
            // Another host may have taken the data dir since: its pointer stays.
            if ((await readPointer(dataDir))?.pid === process.pid) await rm(pointerOf(dataDir), { force: true })
            await rm(dir, { recursive: true, force: true })
          })
      )
    })
  )

/**
 * The CLI's side: runs `argv` in the host process `holder` through its operator socket. None when
 * that process does not serve operator commands (it is not a host, or an older one).
 */
export const ask = async (dataDir: string, holder: number, argv: ReadonlyArray<string>): Promise<Outcome | null> => {
  const pointer = await readPointer(dataDir)
  if (pointer === null || pointer.pid !== holder || typeof pointer.socket !== "string") return null
  const socket = createConnection(pointer.socket)
  socket.setTimeout(60_000, () => socket.destroy(new Error("the host did not answer within 60 s")))
  socket.write(`${JSON.stringify({ argv })}\n`)
  return JSON.parse(await readLine(socket)) as Outcome
}
