import type { Media as MediaView } from "../../../domain/contract/media.ts"
import type { Media } from "../../../domain/media.ts"
import { formatUtc } from "../../../domain/time.ts"

/** The upload as the API shows it; `durationMs` only for video, as the spec says. */
export const mediaView = (m: Media, url: string): MediaView => ({
  id: m.id,
  type: m.type,
  mimeType: m.mimeType,
  filename: m.filename,
  sizeBytes: m.sizeBytes,
  width: m.width,
  height: m.height,
  ...(m.type === "video" ? { durationMs: m.durationMs } : {}),
  url,
  previewUrl: `/api/v1/media/${m.id}/preview`,
  createdAt: formatUtc(m.createdAt),
  expiresAt: formatUtc(m.expiresAt)
})
