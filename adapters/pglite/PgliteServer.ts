import { chmod, link, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { PGlite } from "@electric-sql/pglite"
import { PGLiteSocketServer } from "@electric-sql/pglite-socket"
import { Effect, Schema, type Scope } from "effect"
import { defaultTemplateDir, initialiseFromTemplate } from "./template.ts"

export class PgliteError extends Schema.TaggedError<PgliteError>()("PgliteError", {
  message: Schema.String,
  cause: Schema.optional(Schema.Defect())
}) {}

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

const lockFileOf = (dataDir: string) => `${dataDir}.lock`

/** The live process that holds `dataDir` open, if any (a lock left by a dead one does not count). */
export const holderOf = async (dataDir: string): Promise<number | null> => {
  const holder = Number((await readFile(lockFileOf(dataDir), "utf8").catch(() => "")).trim())
  return holder > 0 && isAlive(holder) ? holder : null
}

/**
 * One process per data directory: PGlite has no lock of its own, and two writers would corrupt
 * it. A lock file beside the directory holds our pid; one left by a dead process is taken over.
 */
const lockDataDir = (dataDir: string): Effect.Effect<void, PgliteError, Scope.Scope> => {
  const file = lockFileOf(dataDir)
  const take = async (): Promise<void> => {
    await mkdir(dirname(dataDir), { recursive: true })
    // Written aside, then linked into place: a reader never sees the lock without its pid.
    const mine = `${file}.${process.pid}`
    await writeFile(mine, String(process.pid), { mode: 0o600 })
    try {
      await link(mine, file)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error
      const holder = await holderOf(dataDir)
      if (holder !== null) throw new Error(`${dataDir} is open in process ${holder}`)
      await rm(file, { force: true })
      // Awaited: the finally below must not remove this process's aside file while the retry links it.
      return await take()
    } finally {
      await rm(mine, { force: true })
    }
  }
  return Effect.acquireRelease(
    Effect.tryPromise({
      try: take,
      catch: (cause) => new PgliteError({ message: `cannot lock ${dataDir}: ${String(cause)}`, cause })
    }),
    () => Effect.promise(() => rm(file, { force: true }))
  )
}

/*
 * PostgreSQL's memory settings, sized for a small server: PGlite's WebAssembly memory only grows, so
 * every buffer it ever touches stays resident. Shared buffers 16 MB instead of 128 MB (the operating
 * system's file cache holds the rest of the data), and the per-operation areas kept small.
 */
const memorySettings = {
  shared_buffers: "16MB",
  wal_buffers: "1MB",
  temp_buffers: "2MB",
  work_mem: "2MB",
  maintenance_work_mem: "16MB",
  max_connections: "10"
}

export interface Options {
  /** The pre-initialised data dir copied into a new one (made when missing); null runs initdb in place. */
  readonly templateDir?: string | null | undefined
}

const openDatabase = (dataDir: string, options: Options) =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: async () => {
        const templateDir = options.templateDir === undefined ? defaultTemplateDir : options.templateDir
        if (templateDir !== null) await initialiseFromTemplate(dataDir, templateDir)
        // PGlite writes its files world-writable (0666): only a private directory keeps other users out.
        await mkdir(dataDir, { recursive: true, mode: 0o700 })
        await chmod(dataDir, 0o700)
        const settings = Object.entries(memorySettings).flatMap(([name, value]) => ["-c", `${name}=${value}`])
        return await PGlite.create(dataDir, { startParams: [...PGlite.defaultStartParams, ...settings] })
      },
      catch: (cause) => new PgliteError({ message: `cannot open PGlite in ${dataDir}: ${String(cause)}`, cause })
    }),
    (db) => Effect.promise(() => db.close()).pipe(Effect.ignore)
  )

/**
 * Serves PGlite on a unix socket in a private (0700) temporary directory: the socket server asks
 * for no password, so only this user may reach it. Returns the socket path.
 */
const serve = (db: PGlite) =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: async () => {
        const dir = await mkdtemp(join(tmpdir(), "herald-pglite-"))
        const path = join(dir, ".s.PGSQL.5432")
        // Two slots while the client holds one: a reconnecting client must not find the door shut.
        const server = new PGLiteSocketServer({ db, path, maxConnections: 2 })
        await server.start()
        return { server, dir, path }
      },
      catch: (cause) => new PgliteError({ message: `cannot serve PGlite: ${String(cause)}`, cause })
    }),
    ({ server, dir }) =>
      Effect.promise(async () => {
        await server.stop()
        await rm(dir, { recursive: true, force: true })
      }).pipe(Effect.ignore)
  )

/** Locks, opens and serves a PGlite data directory for the life of the scope; yields the socket path. */
export const start = (dataDir: string, options: Options = {}): Effect.Effect<string, PgliteError, Scope.Scope> =>
  Effect.gen(function* () {
    yield* lockDataDir(dataDir)
    const db = yield* openDatabase(dataDir, options)
    const { path } = yield* serve(db)
    return path
  })
