import { DAY_MS } from "./time.ts"

export type MediaType = "image" | "video"

export interface Media {
  readonly id: string
  readonly workspaceId: string
  readonly type: MediaType
  /** Detected MIME type, from the bytes. */
  readonly mimeType: string
  readonly filename: string
  readonly sizeBytes: number
  readonly width: number | null
  readonly height: number | null
  readonly durationMs: number | null
  /** BlobStore key of the file and of its preview (null: no preview). */
  readonly blobKey: string
  readonly previewKey: string | null
  readonly createdAt: number
  readonly expiresAt: number
}

export const MEDIA_LIFETIME_MS = 7 * DAY_MS

/** The accepted types, by detected MIME type. */
export const acceptedMediaTypes: Record<string, MediaType> = {
  "image/jpeg": "image",
  "image/png": "image",
  "image/gif": "image",
  "image/webp": "image",
  "video/mp4": "video",
  "video/quicktime": "video",
  "video/x-m4v": "video",
  "video/webm": "video",
  "video/x-msvideo": "video",
  "video/vnd.avi": "video",
  "video/mpeg": "video",
  "video/MP1S": "video",
  "video/MP2P": "video"
}

export const isExpired = (media: Media, now: number): boolean => media.expiresAt <= now
