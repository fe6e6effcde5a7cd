import { randomBytes } from "node:crypto"
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { dirname } from "node:path"
import { Config, Effect, Option, Redacted } from "effect"

/** Herald's secret and the earlier ones still accepted while it rotates. */
export interface HeraldSecret {
  readonly current: string
  readonly previous: ReadonlyArray<string>
}

/**
 * The secret from HERALD_SECRET (and HERALD_SECRET_PREVIOUS, comma-separated, for rotation); without
 * it, the one kept in `secretFile`, made once (0600) on first start. Several processes sharing a
 * database must share HERALD_SECRET. It seals network tokens (the vault) and signs file links, each
 * under its own derived key.
 */
export const heraldSecret = (secretFile: string) =>
  Effect.gen(function* () {
    const fromEnv = yield* Config.option(Config.Redacted("HERALD_SECRET"))
    const previous = yield* Config.option(Config.String("HERALD_SECRET_PREVIOUS"))
    const current = Option.isSome(fromEnv)
      ? Redacted.value(fromEnv.value)
      : yield* Effect.sync(() => secretIn(secretFile))
    return {
      current,
      previous: Option.match(previous, {
        onNone: () => [],
        onSome: (p) =>
          p
            .split(",")
            .map((s) => s.trim())
            .filter((s) => s !== "")
      })
    } satisfies HeraldSecret
  })

const secretIn = (file: string): string => {
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true })
    // Written whole under another name, then linked into place: a process starting at the same moment reads either nothing or all of it.
    const draft = `${file}.${process.pid}.tmp`
    writeFileSync(draft, randomBytes(32).toString("base64url") + "\n", { mode: 0o600 })
    try {
      linkSync(draft, file)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error
    } finally {
      rmSync(draft, { force: true })
    }
  }
  return readFileSync(file, "utf8").trim()
}
