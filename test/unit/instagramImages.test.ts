import { Result } from "effect"
import { describe, expect, it } from "vitest"
import type { Account } from "../../domain/account.ts"
import type { Media } from "../../domain/media.ts"
import type { CreatePostRequest } from "../../domain/postRequest.ts"
import { checkPost } from "../../domain/postRules.ts"

/** Instagram takes JPEG only, from 4:5 to 1.91:1: other formats go as converted copies, other shapes are refused at create. */
const NOW = Date.parse("2026-11-26T10:00:00Z")
const instagram: Account = {
  id: "acc_ig",
  workspaceId: "ws_1",
  platform: "instagram",
  name: "ig",
  username: "ig",
  avatarUrl: null,
  status: "connected",
  connectedAt: NOW,
  externalId: "ig-1"
}
const image = (id: string, width: number, height: number, mimeType = "image/jpeg"): Media => ({
  id,
  workspaceId: "ws_1",
  type: "image",
  mimeType,
  filename: id,
  sizeBytes: 1000,
  width,
  height,
  durationMs: null,
  blobKey: id,
  previewKey: null,
  createdAt: NOW,
  expiresAt: NOW + 86_400_000
})
const post = (...media: Array<Media>) =>
  checkPost(
    {
      accountIds: ["acc_ig"],
      content: "hi",
      mediaIds: media.map((m) => m.id),
      dryRun: false,
      scheduledFor: null,
      requireApproval: null,
      firstComment: null,
      thread: [],
      poll: null,
      cover: null,
      tiktokAiGenerated: false,
      tiktok: null,
      youtube: null,
      pinterest: null,
      facebook: null,
      overrides: {}
    } as CreatePostRequest,
    { now: NOW, accounts: [instagram], media }
  )

describe("Instagram images at create", () => {
  it("takes JPEGs from 4:5 to 1.91:1, the ends included within a pixel's rounding", () => {
    for (const [w, h] of [
      [1080, 1350],
      [1080, 1080],
      [1080, 566],
      [1910, 1000]
    ] as const) {
      const result = post(image("med_ok", w, h))
      expect(Result.isSuccess(result), `${w}x${h}`).toBe(true)
      if (Result.isSuccess(result)) expect(result.success.warnings).toEqual([])
    }
  })

  it("refuses a taller or a wider image with 400 validation_failed naming the media, before anything is stored", () => {
    for (const [w, h] of [
      [1080, 1920],
      [2000, 1000]
    ] as const) {
      const result = post(image("med_jpg", 1080, 1350), image("med_odd", w, h))
      expect(Result.isFailure(result), `${w}x${h}`).toBe(true)
      if (Result.isFailure(result)) {
        expect(result.failure.code).toBe("validation_failed")
        expect(result.failure.details).toEqual({ fields: ["mediaIds"] })
        expect(result.failure.detail).toContain(`med_odd is ${w}x${h}`)
      }
    }
  })

  it("accepts a PNG of a good shape with a warning that a converted copy goes", () => {
    const result = post(image("med_png", 1080, 1080, "image/png"))
    expect(Result.isSuccess(result)).toBe(true)
    if (Result.isSuccess(result)) expect(result.success.warnings.join(" ")).toMatch(/JPEG images only.*converted/)
  })
})
