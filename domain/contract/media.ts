import { Schema } from "effect"
import { Time } from "./postParts.ts"

/** An upload as the API and MCP show it; `durationMs` only for video, as the spec says. */
export const Media = Schema.Struct({
  id: Schema.String,
  type: Schema.Literals(["image", "video"]),
  mimeType: Schema.String,
  filename: Schema.String,
  sizeBytes: Schema.Int,
  width: Schema.NullOr(Schema.Int),
  height: Schema.NullOr(Schema.Int),
  durationMs: Schema.optionalKey(Schema.NullOr(Schema.Int)).annotate({ description: "Video only" }),
  url: Schema.String.annotate({ description: "Absolute URL of the stored file" }),
  previewUrl: Schema.String.annotate({ description: "/api/v1/media/<id>/preview" }),
  createdAt: Time,
  expiresAt: Time.annotate({ description: "7 days after the upload; then media_expired when used" })
}).annotate({ identifier: "Media" })
export type Media = typeof Media.Type

export const MediaEnvelope = Schema.Struct({ media: Media }).annotate({ identifier: "MediaEnvelope" })
