import { Clock, Context, Effect, Layer } from "effect"

export interface ReadCacheShape {
  /** The value cached under `key` if younger than the time-to-live, else `load`'s (cached when it succeeds). */
  readonly get: <A, E, R>(key: string, load: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /** Forgets every entry whose key starts with `prefix` (in this process). */
  readonly invalidate: (prefix: string) => Effect.Effect<void>
}

/**
 * A short-lived, per-process cache for hot reads on every request (API key and workspace lookups).
 * What it trades: a change made by another process (a key revoked elsewhere) is seen after at most
 * the time-to-live; changes made through this process invalidate at once.
 */
export class ReadCache extends Context.Service<ReadCache, ReadCacheShape>()("herald/ReadCache") {}

const MAX_ENTRIES = 10_000

export const make = (ttlMs: number): ReadCacheShape => {
  const entries = new Map<string, { readonly value: unknown; readonly until: number }>()
  if (ttlMs <= 0) return { get: (_key, load) => load, invalidate: () => Effect.void }
  return {
    get: <A, E, R>(key: string, load: Effect.Effect<A, E, R>) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => {
        const hit = entries.get(key)
        if (hit && hit.until > now) return Effect.succeed(hit.value as A)
        return Effect.tap(load, (value) =>
          Effect.sync(() => {
            if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!)
            entries.set(key, { value, until: now + ttlMs })
          })
        )
      }),
    invalidate: (prefix) =>
      Effect.sync(() => {
        for (const key of entries.keys()) if (key.startsWith(prefix)) entries.delete(key)
      })
  }
}

export const layer = (ttlMs: number) => Layer.succeed(ReadCache)(make(ttlMs))

const uncached = make(0)

/** The provided cache, or none: hosts opt in; anything that does not provide one reads through. */
export const readCache: Effect.Effect<ReadCacheShape> = Effect.map(Effect.serviceOption(ReadCache), (o) => (o._tag === "Some" ? o.value : uncached))
