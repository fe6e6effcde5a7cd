import { Effect, Stream } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { BlobStore } from "../../application/ports/BlobStore.ts"
import { failWith } from "./errors.ts"

const PREFIX = "/files/"

/**
 * GET /files/<key>: the bytes behind a local (or memory) blob store's `url`. No authentication:
 * networks fetch media by URL; keys carry a random part, so they cannot be guessed.
 */
export const layer = HttpRouter.addAll(
  Effect.gen(function* () {
    const blobs = yield* BlobStore
    const serve = Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const path = request.url.split("?")[0]
      let key: string
      try {
        key = decodeURIComponent(path.slice(PREFIX.length))
      } catch {
        return failWith("not_found", { path })
      }
      const info = yield* Effect.result(blobs.stat(key))
      if (info._tag === "Failure") {
        const error = info.failure
        if (error._tag === "BlobNotFound") return failWith("not_found", { path })
        return failWith(error.unavailable ? "upstream_storage_unavailable" : "upstream_storage_failed")
      }
      // A read that fails after the headers went out can only cut the response short.
      return HttpServerResponse.stream(Stream.orDie(blobs.get(key)), {
        contentType: info.success.contentType,
        contentLength: info.success.sizeBytes,
        headers: { "cache-control": "public, max-age=3600", "x-content-type-options": "nosniff" }
      })
    })
    return [HttpRouter.route("GET", "/files/*", serve)]
  })
)
