import { Effect, Stream } from "effect"
import { HttpServerRequest, Multipart } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { getMedia, getPreview } from "../../../application/usecases/media/read.ts"
import { REST_UPLOAD_LIMIT, uploadMedia } from "../../../application/usecases/media/upload.ts"
import { fail, type HeraldError, invalidFields } from "../../../domain/errors.ts"
import { HeraldApi } from "../api.ts"
import { parseJsonUpload } from "../mediaJson.ts"
import { CurrentActor } from "../security.ts"
import { json, runner } from "./request.ts"

type Services =
  | Effect.Services<ReturnType<typeof uploadMedia>>
  | Effect.Services<ReturnType<typeof getMedia>>
  | Effect.Services<ReturnType<typeof getPreview>>

const multipartError = (error: Multipart.MultipartError): HeraldError => {
  switch (error.reason._tag) {
    case "FileTooLarge":
    case "BodyTooLarge":
      return fail("file_too_large", { maxBytes: REST_UPLOAD_LIMIT })
    case "TooManyParts":
    case "FieldTooLarge":
      return invalidFields(["file"], "Send one multipart field named file, and little else.")
    default:
      return invalidFields(["file"], "The multipart body is malformed.")
  }
}

const noFile = () => invalidFields(["file"], "Send the file in a multipart field named file (with a filename).")

/** The first file part named `file`, as a stream; other file parts are read past, never kept. */
const fromMultipart = (parts: Stream.Stream<Multipart.Part, Multipart.MultipartError>) => {
  let filename: string | null = null
  const body = Stream.flatMap(Stream.mapError(parts, multipartError), (part) => {
    if (!Multipart.isFile(part)) return Stream.empty
    const content = Stream.mapError(part.content, multipartError)
    if (part.key !== "file" || filename !== null) return Stream.drain(content)
    filename = part.name
    return content
  }).pipe(Stream.concat(Stream.suspend(() => (filename === null ? Stream.fail(noFile()) : Stream.empty))))
  return { body, filename: Effect.suspend(() => (filename === null ? Effect.fail(noFile()) : Effect.succeed(filename))) }
}

// Base64 is 4/3 of the file, plus room for the other fields and line breaks.
const JSON_RAW_LIMIT = Math.ceil((REST_UPLOAD_LIMIT * 4) / 3) + 1024 * 1024

export const layer = HttpApiBuilder.group(HeraldApi, "media", (handlers) =>
  Effect.gen(function* () {
    const run = yield* runner<Services>()
    return handlers
      .handle("upload", ({ payload }) =>
        run(Effect.gen(function* () {
          const actor = yield* CurrentActor
          const request = yield* HttpServerRequest.HttpServerRequest
          // Both forms arrive as streams; the Content-Type says which one this is.
          const source = (request.headers["content-type"] ?? "").toLowerCase().startsWith("multipart/")
            ? fromMultipart(payload as Stream.Stream<Multipart.Part, Multipart.MultipartError>)
            : parseJsonUpload(Stream.mapError(payload as Stream.Stream<Uint8Array, unknown>, () => fail("file_too_large")), JSON_RAW_LIMIT)
          return json(yield* uploadMedia(actor, source.filename, source.body, REST_UPLOAD_LIMIT), 201)
        })))
      .handle("get", ({ params }) => run(Effect.flatMap(CurrentActor, (actor) => Effect.map(getMedia(actor, params.id), (body) => json(body)))))
      .handle("preview", ({ params }) => run(Effect.flatMap(CurrentActor, (actor) => getPreview(actor, params.id))))
  })
)
