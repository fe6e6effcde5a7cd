import { Effect, Option, Pull, type Scope, Stream } from "effect"
import { fail, type HeraldError } from "../../../domain/errors.ts"

/** Counts bytes as they pass and fails with `file_too_large` at the first byte over the limit, reading no further. */
export const limitBytes = <E>(
  body: Stream.Stream<Uint8Array, E>,
  maxBytes: number
): Stream.Stream<Uint8Array, E | HeraldError> =>
  Stream.suspend(() => {
    let total = 0
    return Stream.mapArrayEffect(body, (chunks) => {
      for (const chunk of chunks) total += chunk.length
      return total > maxBytes ? Effect.fail(fail("file_too_large", { maxBytes })) : Effect.succeed(chunks)
    })
  })

const concatBytes = (chunks: ReadonlyArray<Uint8Array>, size: number): Uint8Array => {
  const out = new Uint8Array(size)
  let at = 0
  for (const chunk of chunks) {
    if (at >= size) break
    const part = chunk.subarray(0, size - at)
    out.set(part, at)
    at += part.length
  }
  return out
}

/**
 * Reads at least `size` leading bytes (fewer when the body is shorter) and gives them back with the
 * whole body, head included, as a stream that is valid within the scope.
 */
export const readHead = <E>(
  body: Stream.Stream<Uint8Array, E>,
  size: number
): Effect.Effect<{ readonly head: Uint8Array; readonly body: Stream.Stream<Uint8Array, E> }, E, Scope.Scope> =>
  Effect.gen(function* () {
    const pull = yield* Stream.toPull(body)
    const chunks: Array<Uint8Array> = []
    let have = 0
    let ended = false
    while (have < size) {
      const next = yield* Pull.catchDone(Effect.map(pull, Option.some), () => Effect.succeed(Option.none()))
      if (Option.isNone(next)) {
        ended = true
        break
      }
      for (const chunk of next.value) {
        chunks.push(chunk)
        have += chunk.length
      }
    }
    const rest: Stream.Stream<Uint8Array, E> = ended ? Stream.empty : Stream.fromPull(Effect.succeed(pull))
    return { head: concatBytes(chunks, Math.min(have, size)), body: Stream.concat(Stream.fromArray(chunks), rest) }
  })

/** Gathers a small stream (a preview) into one array. */
export const collectBytes = <E>(body: Stream.Stream<Uint8Array, E>): Effect.Effect<Uint8Array, E> =>
  Effect.map(Stream.runCollect(body), (chunks) =>
    concatBytes(
      chunks,
      chunks.reduce((n, c) => n + c.length, 0)
    )
  )
