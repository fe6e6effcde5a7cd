import { Effect } from "effect"
import { HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { getMedia, getPreview } from "../../../application/usecases/media/read.ts"
import { REST_UPLOAD_LIMIT, uploadMedia } from "../../../application/usecases/media/upload.ts"
import { invalidFields } from "../../../domain/errors.ts"
import { HeraldApi } from "../api.ts"
import { MEDIA_JSON_BODY_LIMIT } from "../bodyLimit.ts"
import { parseJsonUpload } from "../mediaJson.ts"
import { multipartFile } from "../mediaMultipart.ts"
import { requestBody } from "../requestBody.ts"
import { CurrentActor } from "../security.ts"
import { json, runner } from "./request.ts"

type Services =
  | Effect.Services<ReturnType<typeof uploadMedia>>
  | Effect.Services<ReturnType<typeof getMedia>>
  | Effect.Services<ReturnType<typeof getPreview>>

// The multipart parser's own limits are a backstop; the use case's byte counter answers first.
const multipartLimits = {
  maxParts: 16,
  maxFieldBytes: 64 * 1024,
  maxTotalBytes: REST_UPLOAD_LIMIT + 1024 * 1024,
  maxFileBytes: REST_UPLOAD_LIMIT
}

const cutShort = () => invalidFields(["file"], "The request body ended before it was complete.")

export const layer = HttpApiBuilder.group(HeraldApi, "media", (handlers) =>
  Effect.gen(function* () {
    const run = yield* runner<Services>()
    return handlers
      .handle("upload", () =>
        run(
          Effect.gen(function* () {
            const actor = yield* CurrentActor
            const request = yield* HttpServerRequest.HttpServerRequest
            // Both forms are read off the raw body as it arrives (the declared payload documents them and
            // picks the content types; its own readers are slower); the Content-Type says which form this is.
            const raw = requestBody(request, cutShort)
            const source = (request.headers["content-type"] ?? "").toLowerCase().startsWith("multipart/")
              ? multipartFile(raw, request.headers, multipartLimits)
              : parseJsonUpload(raw, MEDIA_JSON_BODY_LIMIT)
            return json(yield* uploadMedia(actor, source.filename, source.body, REST_UPLOAD_LIMIT), 201)
          })
        )
      )
      .handle("get", ({ params }) =>
        run(Effect.flatMap(CurrentActor, (actor) => Effect.map(getMedia(actor, params.id), (body) => json(body))))
      )
      .handle("preview", ({ params }) => run(Effect.flatMap(CurrentActor, (actor) => getPreview(actor, params.id))))
  })
)
