import { Schema } from "effect"
import { Multipart } from "effect/http"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { REST_UPLOAD_LIMIT } from "../../application/usecases/media/upload.ts"
import { MediaEnvelope } from "../../domain/contract/media.ts"
import { apiErrors } from "./errors.ts"
import { Authentication } from "./security.ts"

const Str = Schema.String
const e = apiErrors

/** The JSON form is read as a byte stream (so `dataBase64` is never held whole); its fields are documented below. */
const JsonUpload = HttpApiSchema.StreamUint8Array({ contentType: "application/json" })

const jsonUploadDoc = {
  type: "object",
  properties: {
    filename: {
      type: "string",
      maxLength: 255,
      description:
        "One line of visible text: no control, zero-width or text-direction characters (validation_failed otherwise)"
    },
    dataBase64: {
      type: "string",
      description: "Base64 of the file (a data: URL is accepted); about 33% larger than multipart"
    },
    contentType: { type: "string", description: "Optional; the type is read from the bytes" }
  },
  required: ["filename", "dataBase64"]
}
const documentJsonForm = (operation: Record<string, any>) => ({
  ...operation,
  requestBody: {
    ...operation.requestBody,
    content: { ...operation.requestBody?.content, "application/json": { schema: jsonUploadDoc } }
  }
})

// Documents the form and selects it by content type; the handler reads the body itself
// (mediaMultipart.ts, with the same limits), so these limits never see the bytes.
const MultipartUpload = Schema.Struct({ file: Multipart.SingleFileSchema }).pipe(
  HttpApiSchema.asMultipartStream({
    maxParts: 16,
    maxFieldSize: "64 KiB",
    maxTotalSize: REST_UPLOAD_LIMIT + 1024 * 1024
  })
)

export class MediaGroup extends HttpApiGroup.make("media")
  .add(
    HttpApiEndpoint.post("upload", "/media", {
      payload: [MultipartUpload, JsonUpload],
      success: MediaEnvelope.pipe(HttpApiSchema.status(201)),
      error: e(400, 401, 403, 404, 413, 502, 503)
    })
      .annotate(OpenApi.Summary, "Upload an image or a video")
      .annotate(
        OpenApi.Description,
        "Upload one image or video (100 MB at most; the type comes from the bytes). Multipart field `file`, or JSON with base64."
      )
      .annotate(OpenApi.Transform, documentJsonForm),
    HttpApiEndpoint.get("get", "/media/:id", {
      params: { id: Str },
      success: MediaEnvelope,
      error: e(401, 404, 409)
    }).annotate(OpenApi.Summary, "Get an upload"),
    HttpApiEndpoint.get("preview", "/media/:id/preview", {
      params: { id: Str },
      success: Schema.Uint8Array.pipe(HttpApiSchema.asUint8Array({ contentType: "image/jpeg" })),
      error: e(401, 404, 409, 502, 503)
    })
      .annotate(OpenApi.Summary, "Get an upload's preview image")
      .annotate(OpenApi.Description, "A JPEG about 480 px wide; 404 preview_not_found when the upload has none.")
  )
  .middleware(Authentication)
  .annotate(
    OpenApi.Description,
    "Images and videos for posts: uploads are kept 7 days, and a post names them by id."
  ) {}
