import type { IncomingMessage } from "node:http"
import { finished } from "node:stream"
import { Cause, Channel, Effect, Exit, Scope, Stream } from "effect"
import type { HttpServerRequest } from "effect/http"
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import { handOver } from "../../application/ports/chunkHandover.ts"
import type { HeraldError } from "../../domain/errors.ts"

// Bytes received but not yet pulled before the socket is paused: the sender waits on the reader, not on memory.
const HIGH_WATER = 2 * 1024 * 1024

/**
 * A request body as Node hands it over. The platform's own body stream reads with `read()`, which
 * joins every buffered chunk into a new buffer (a second copy of each upload); here the chunks come
 * from `data` events as they are, a pull takes all that are waiting, and the socket is paused while
 * more than HIGH_WATER bytes wait. Nothing else holds those chunks, so they are handed over
 * (ports/chunkHandover.ts): the store frees each once written, instead of leaving 100 MB of dead buffers per
 * upload to full collections of the heap. `cutShort` is the failure when the client goes away
 * mid-body. Off Node (a web handler) the platform's stream is used.
 */
export const requestBody = (
  request: HttpServerRequest.HttpServerRequest,
  cutShort: () => HeraldError
): Stream.Stream<Uint8Array, HeraldError> => {
  const source = NodeHttpServerRequest.toIncomingMessage(request) as IncomingMessage | undefined
  if (typeof source?.on !== "function" || typeof source.pause !== "function")
    return Stream.mapError(request.stream, cutShort)
  return Stream.fromChannel(
    Channel.fromTransform((_, scope) =>
      Effect.suspend(() => {
        let waiting: Array<Uint8Array> = []
        let waitingBytes = 0
        let end: Exit.Exit<never, HeraldError | Cause.Done> | undefined
        let wake: (() => void) | undefined
        const onData = (chunk: Uint8Array) => {
          waiting.push(handOver(chunk))
          waitingBytes += chunk.length
          if (waitingBytes > HIGH_WATER) source.pause()
          wake?.()
        }
        const cleanup = finished(source, { readable: true, writable: false }, (error) => {
          end ??= error === undefined && source.complete ? Exit.fail(Cause.Done()) : Exit.fail(cutShort())
          wake?.()
        })
        source.on("data", onData)
        // The platform answers `Expect: 100-continue` only when its own readers start; this is one.
        continueIfExpected(request, source)
        const pull: Effect.Effect<readonly [Uint8Array, ...Array<Uint8Array>], HeraldError | Cause.Done> =
          Effect.suspend(() => {
            if (waiting.length > 0) {
              const chunks = waiting as unknown as readonly [Uint8Array, ...Array<Uint8Array>]
              waiting = []
              waitingBytes = 0
              if (source.isPaused() && end === undefined) source.resume()
              return Effect.succeed(chunks)
            }
            if (end !== undefined) return end
            return Effect.flatMap(
              Effect.callback<void>((resume) => {
                wake = () => {
                  wake = undefined
                  resume(Effect.void)
                }
                return Effect.sync(() => void (wake = undefined))
              }),
              () => pull
            )
          })
        return Effect.as(
          Scope.addFinalizer(
            scope,
            Effect.sync(() => {
              source.off("data", onData)
              cleanup()
              // What is left is the platform's: it drains a short rest or closes the connection after the answer.
              if (!source.complete) source.pause()
            })
          ),
          pull
        )
      })
    )
  )
}

const continueIfExpected = (request: HttpServerRequest.HttpServerRequest, source: IncomingMessage) => {
  if (String(source.headers.expect ?? "").toLowerCase() !== "100-continue") return
  // The platform's own request answers it and notes that it did (not part of its typed interface).
  const platform = request as { writeContinue?: () => void }
  if (typeof platform.writeContinue === "function") return platform.writeContinue()
  const response = NodeHttpServerRequest.toServerResponse(request) as {
    headersSent?: boolean
    writeContinue?: () => void
  }
  if (response.headersSent === false) response.writeContinue?.()
}
