import { createReadStream } from "node:fs"
import { basename } from "node:path"
import { Effect, Schema, Stream } from "effect"
import { getPreview, MCP_UPLOAD_LIMIT, uploadMedia } from "../../../application/usecases/media/index.ts"
import { MediaEnvelope } from "../../../domain/contract/media.ts"
import { fail, type HeraldError, invalidFields } from "../../../domain/errors.ts"
import { MEDIA_LIFETIME_MS } from "../../../domain/media.ts"
import { DAY_MS } from "../../../domain/time.ts"
import { planLimits } from "../../../domain/workspace.ts"
import { type CallContext, success, tool } from "../tool.ts"

const megabytes = MCP_UPLOAD_LIMIT / (1024 * 1024)
// 4 base64 characters are 3 bytes: slices of whole quads decode on their own, so the use case's
// byte counter can stop at the limit without the rest being decoded.
const SLICE_CHARS = 64 * 1024 * 4

// Base64 is 4/3 of the file; twice the file leaves room for line breaks and a data: prefix.
const MAX_BASE64_CHARS = 2 * MCP_UPLOAD_LIMIT

/** Base64 (a `data:` URL prefix and line breaks allowed) as a stream of bytes; bad text is a field error. */
const fromBase64 = (text: string): Stream.Stream<Uint8Array, HeraldError> => {
  // Far too long is refused before the text is scanned or copied.
  if (text.length > MAX_BASE64_CHARS) return Stream.fail(fail("file_too_large", { maxBytes: MCP_UPLOAD_LIMIT }))
  const data = text.replace(/^data:[^,]*;base64,/, "").replace(/\s+/g, "")
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(data) || data.length % 4 === 1)
    return Stream.fail(invalidFields(["dataBase64"], "dataBase64 is not valid base64."))
  return Stream.fromIterable(
    (function* () {
      for (let at = 0; at < data.length; at += SLICE_CHARS)
        yield new Uint8Array(Buffer.from(data.slice(at, at + SLICE_CHARS), "base64"))
    })()
  )
}

/** A local file as a stream (stdio only: the server runs on the agent's own machine). */
const fromPath = (path: string): Stream.Stream<Uint8Array, HeraldError> =>
  Stream.fromAsyncIterable(createReadStream(path) as AsyncIterable<Uint8Array>, (error) =>
    fail(
      "validation_failed",
      { fields: ["path"] },
      `Cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`
    )
  )

const description = (transport: CallContext["transport"]) =>
  [
    `Uploads one image or video, at most ${megabytes} MB (file_too_large above): JPEG, PNG, GIF, WebP, MP4, MOV, M4V, WebM, AVI or MPEG.`,
    "The type is read from the bytes, not the name. Returns media.id for create_post's mediaIds (several ids make a carousel) and a preview with get_media_preview.",
    `Uploads expire after ${MEDIA_LIFETIME_MS / DAY_MS} days (using one later gives media_expired: upload again).`,
    `An unclaimed workspace holds at most ${planLimits.free.uploadsWhileUnclaimed} uploads (claim_required).`,
    transport === "stdio"
      ? "Give either path (a local file) or filename with dataBase64."
      : "Send the file as dataBase64 with its filename."
  ].join(" ")

const described = (description: string) => Schema.String.annotate({ description })
const base64Fields = {
  filename: described("The file's name, e.g. photo.jpg"),
  dataBase64: described("The file's bytes in base64"),
  contentType: Schema.optional(described("Informational: the type is read from the bytes"))
}

const annotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false }

/** Over HTTP the bytes come inline; over stdio a local path works too. */
export const uploadMediaTool = (transport: CallContext["transport"]) =>
  transport === "http"
    ? tool({
        name: "upload_media",
        title: "Upload an image or video",
        description: description(transport),
        annotations,
        input: Schema.Struct(base64Fields),
        output: MediaEnvelope,
        run: (args, call) => uploadMedia(call.actor, args.filename, fromBase64(args.dataBase64), MCP_UPLOAD_LIMIT)
      })
    : tool({
        name: "upload_media",
        title: "Upload an image or video",
        description: description(transport),
        annotations,
        input: Schema.Struct({
          path: Schema.optional(
            described("A local file to upload (absolute, or relative to the server's working directory)")
          ),
          filename: Schema.optional(described("The file's name; defaults to the path's last part")),
          dataBase64: Schema.optional(base64Fields.dataBase64),
          contentType: base64Fields.contentType
        }),
        output: MediaEnvelope,
        run: (args, call) => {
          if ((args.path === undefined) === (args.dataBase64 === undefined))
            return Effect.fail(invalidFields(["path", "dataBase64"], "Give either path or dataBase64 (with filename)."))
          if (args.path !== undefined)
            return uploadMedia(call.actor, args.filename ?? basename(args.path), fromPath(args.path), MCP_UPLOAD_LIMIT)
          if (args.filename === undefined)
            return Effect.fail(invalidFields(["filename"], "filename is required with dataBase64."))
          return uploadMedia(call.actor, args.filename, fromBase64(args.dataBase64!), MCP_UPLOAD_LIMIT)
        }
      })

export const getMediaPreviewTool = tool({
  name: "get_media_preview",
  title: "See an upload's preview",
  description:
    "A small JPEG (about 480 px wide) of an upload, returned as an image so you can check you picked the right file before posting. " +
    "Uploads without a preview give preview_not_found; expired ones media_expired.",
  input: Schema.Struct({ mediaId: described("The upload's id (med_...)") }),
  output: Schema.Struct({ mediaId: Schema.String, mimeType: Schema.Literal("image/jpeg"), sizeBytes: Schema.Int }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: (args, call) =>
    Effect.map(getPreview(call.actor, args.mediaId), (bytes) => ({
      mediaId: args.mediaId,
      mimeType: "image/jpeg" as const,
      sizeBytes: bytes.length,
      data: Buffer.from(bytes).toString("base64")
    })),
  // The bytes go out as an image block only, not again inside the structured result.
  render: ({ data, ...rest }: { data: string }) => success(rest, [{ type: "image", data, mimeType: "image/jpeg" }])
})
