import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { decodeCreatePostBody } from "../../domain/contract/postRequest.ts"
import { decodeCreatePost } from "../../domain/postRequest.ts"

const fieldsOf = (result: Result.Result<unknown, { readonly details?: Record<string, unknown> | undefined }>) =>
  Result.isFailure(result) ? result.failure.details?.fields : "decoded"

describe("the create-post schema (domain/contract/postRequest.ts)", () => {
  it("refuses an over-long array in one step: one field, one short note, whatever it holds", () => {
    for (const item of [0, null, "acc"]) {
      const result = decodeCreatePostBody({
        accountIds: Array.from({ length: 200_000 }, () => item),
        thread: Array.from({ length: 200_000 }, () => item)
      })
      expect(fieldsOf(result)).toEqual(["accountIds", "thread"])
      expect(Result.isFailure(result) && (result.failure.detail ?? "").length).toBeLessThan(300)
    }
  })

  it("keeps a well-formed array as sent (no copy), and takes null for an optional field", () => {
    const accountIds = ["acc_1", "acc_2"]
    const result = decodeCreatePostBody({ accountIds, content: null, mediaIds: null, poll: null, tiktok: null })
    expect(Result.isSuccess(result) && result.success.accountIds).toBe(accountIds)
    expect(fieldsOf(decodeCreatePost({ accountIds, content: "x", thread: null, firstReply: null }))).toBe("decoded")
  })

  it("names every malformed and unknown field, nested ones by their dotted path", () => {
    expect(fieldsOf(decodeCreatePostBody({ accountIds: "acc_1", content: 5, colour: "blue" }))).toEqual([
      "colour",
      "accountIds",
      "content"
    ])
    expect(fieldsOf(decodeCreatePostBody({ accountIds: ["a"], poll: { options: "yes" } }))).toEqual([
      "poll.options",
      "poll.durationMinutes"
    ])
    expect(fieldsOf(decodeCreatePostBody({ accountIds: ["a"], cover: { offsetMs: -1 } }))).toEqual([
      "cover.offsetMs",
      "cover.mediaId"
    ])
    expect(fieldsOf(decodeCreatePostBody([1, 2]))).toEqual(["body"])
  })
})
