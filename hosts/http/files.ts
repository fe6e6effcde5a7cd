import { Clock, Effect, Stream } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { BlobStore } from "../../application/ports/BlobStore.ts"
import { FileLinks } from "../../application/ports/FileLinks.ts"
import { failWith } from "./errors.ts"

const PREFIX = "/files/"

/**
 * GET /files/<key>?expires=…&signature=…: the bytes behind a local (or memory) blob store's `url`.
 * No authentication (networks such as Meta fetch media by URL), but only links Herald signed open,
 * and only until they expire: 403 for a link that is not Herald's, 410 for one past its time.
 */
export const layer = HttpRouter.addAll(
  Effect.gen(function* () {
    const blobs = yield* BlobStore
    const links = yield* FileLinks
    const serve = Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const [path, search = ""] = request.url.split("?", 2) as [string, string?]
      let key: string
      try {
        key = decodeURIComponent(path.slice(PREFIX.length))
      } catch {
        return failWith("not_found", { path })
      }
      const query = new URLSearchParams(search)
      const check = links.check(key, query.get("expires"), query.get("signature"), yield* Clock.currentTimeMillis)
      if (check === "invalid") return failWith("file_link_invalid", { path })
      if (check === "expired") return failWith("file_link_expired", { path })
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
        // Private: a shared cache must not keep serving a link after it expires.
        headers: { "cache-control": "private, max-age=300", "x-content-type-options": "nosniff" }
      })
    })
    return [HttpRouter.route("GET", "/files/*", serve)]
  })
)
