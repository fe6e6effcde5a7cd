import { describe, expect, it } from "vitest"
import { shortsAdvice } from "../../adapters/networks/youtube/shorts.ts"
import type { Media } from "../../domain/media.ts"

/** Whether YouTube will file a video as a Short (square or vertical, at most 3 minutes), from the upload's stored metadata. */
const NOW = Date.parse("2026-11-26T10:00:00Z")
const clip = (
  width: number | null,
  height: number | null,
  durationMs: number | null,
  type: "video" | "image" = "video"
): Media => ({
  id: "med_clip",
  workspaceId: "ws_1",
  type,
  mimeType: type === "video" ? "video/mp4" : "image/jpeg",
  filename: "clip.mp4",
  sizeBytes: 1000,
  width,
  height,
  durationMs,
  blobKey: "media/clip",
  previewKey: null,
  createdAt: NOW,
  expiresAt: NOW + 86_400_000
})

describe("YouTube Shorts advice", () => {
  it("vertical or square and at most 3 minutes: a Short (exactly 180 s included)", () => {
    expect(shortsAdvice([clip(1080, 1920, 45_000)])).toEqual([
      "YouTube will show this video as a Short: it is vertical (1080×1920) and runs 45 s, at most 3 minutes. Shorts have no flag in the API; shape and length decide."
    ])
    expect(shortsAdvice([clip(1080, 1080, 180_000)])[0]).toMatch(
      /^YouTube will show this video as a Short: it is square \(1080×1080\) and runs 180 s/
    )
  })

  it("horizontal, or over 3 minutes, or both: a regular video, with every reason", () => {
    expect(shortsAdvice([clip(1920, 1080, 30_000)])).toEqual([
      "YouTube will show this video as a regular video, not a Short: it is horizontal (1920×1080). A Short is square or vertical and at most 3 minutes."
    ])
    expect(shortsAdvice([clip(1080, 1920, 180_100)])).toEqual([
      "YouTube will show this video as a regular video, not a Short: it runs 180.1 s, over 3 minutes. A Short is square or vertical and at most 3 minutes."
    ])
    expect(shortsAdvice([clip(1280, 720, 600_000)])[0]).toContain(
      "it is horizontal (1280×720) and it runs 600 s, over 3 minutes"
    )
  })

  it("unknown dimensions or length are named; no video, no advice", () => {
    expect(shortsAdvice([clip(null, null, 20_000)])[0]).toContain("Herald does not know this video's dimensions, so")
    expect(shortsAdvice([clip(1080, 1920, null)])[0]).toContain("does not know this video's length, so")
    expect(shortsAdvice([clip(null, 1920, null)])[0]).toContain("does not know this video's dimensions or length")
    expect(shortsAdvice([clip(1080, 1920, null, "image")])).toEqual([])
    expect(shortsAdvice([])).toEqual([])
  })
})
