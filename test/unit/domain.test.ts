import { Option, Result } from "effect"
import { describe, expect, it } from "vitest"
import { catalogue } from "../../domain/errors.ts"
import { textLength } from "../../domain/networkRules.ts"
import { derivePostStatus } from "../../domain/post.ts"
import { checkSchedule } from "../../domain/postRules.ts"
import { checkEmail, checkName, chooseLocale } from "../../domain/signup.ts"
import { formatUtc, monthOf, oneYearAfter, parseOffsetTime } from "../../domain/time.ts"

describe("time", () => {
  it("needs an offset and a real date", () => {
    expect(Option.isNone(parseOffsetTime("2026-12-01T10:00:00"))).toBe(true)
    expect(Option.isNone(parseOffsetTime("2026-02-30T10:00:00Z"))).toBe(true)
    expect(Option.getOrThrow(parseOffsetTime("2026-12-01T10:00:00+09:00"))).toBe(Date.parse("2026-12-01T01:00:00Z"))
    expect(formatUtc(Date.parse("2026-12-01T01:00:00Z"))).toBe("2026-12-01T01:00:00.000Z")
  })
  it("the horizon is under one calendar year; the month is UTC", () => {
    const now = Date.parse("2026-11-21T12:00:00Z")
    expect(Result.isFailure(checkSchedule(new Date(oneYearAfter(now)).toISOString(), now))).toBe(true)
    expect(Result.isSuccess(checkSchedule(new Date(oneYearAfter(now) - 1).toISOString(), now))).toBe(true)
    expect(monthOf(Date.parse("2026-11-30T23:59:59+00:00"))).toBe("2026-11")
    expect(monthOf(Date.parse("2026-12-01T08:00:00+09:00"))).toBe("2026-11")
  })
})

describe("post status", () => {
  it("is derived from the targets", () => {
    expect(derivePostStatus([{ status: "published" }, { status: "published" }])).toBe("published")
    // Finished with some targets published: published (post.partially_published), its failed targets say why.
    expect(derivePostStatus([{ status: "published" }, { status: "failed" }])).toBe("published")
    expect(derivePostStatus([{ status: "failed" }, { status: "failed" }])).toBe("failed")
    expect(derivePostStatus([{ status: "publishing" }, { status: "failed" }])).toBe("publishing")
    expect(derivePostStatus([{ status: "scheduled" }])).toBe("scheduled")
    expect(derivePostStatus([{ status: "needs_approval" }])).toBe("needs_approval")
  })
})

describe("sign-up rules", () => {
  it("refuses example, disposable and placeholder addresses; normalises case", () => {
    expect(Result.getOrThrow(checkEmail(" Ann@Herald-Customer.org "))).toBe("ann@herald-customer.org")
    for (const bad of ["a@example.com", "a@sub.example.org", "x@mailinator.com", "your.name@gmail.com", "a@site.test"])
      expect(Result.isFailure(checkEmail(bad)), bad).toBe(true)
  })
  it("refuses control and text-direction characters in names", () => {
    expect(Result.isFailure(checkName("agentName", "evil\u202egnp"))).toBe(true)
    expect(Result.isFailure(checkName("agentName", "line\nbreak"))).toBe(true)
    expect(Result.getOrThrow(checkName("agentName", " Claude "))).toBe("Claude")
  })
  it("chooses the locale from the field, then Accept-Language by quality", () => {
    expect(Result.getOrThrow(chooseLocale(undefined, "en;q=0.5, ja;q=0.9"))).toBe("ja")
    expect(Result.getOrThrow(chooseLocale("en", "ja"))).toBe("en")
    expect(Result.isFailure(chooseLocale("fr", undefined))).toBe(true)
  })
})

describe("rules table and catalogue", () => {
  it("counts text the way each network does", () => {
    expect(textLength("héllo", "chars")).toBe(5)
    expect(textLength("👍🏽", "graphemes")).toBe(1)
    expect(textLength("日本", "x-weighted")).toBe(4)
    expect(textLength("see https://example.org/a/very/long/path/that/goes/on", "x-weighted")).toBe(4 + 23)
  })
  it("gives every spec code a status, a hint and a retryable flag", () => {
    const spec: Record<string, number> = {
      validation_failed: 400,
      unsupported_media_type: 400,
      media_unreadable: 400,
      claim_required: 403,
      file_too_large: 413,
      preview_not_found: 404,
      invalid_date: 400,
      scheduled_in_past: 400,
      scheduled_too_far: 400,
      media_required: 400,
      thread_unsupported: 400,
      poll_unsupported: 400,
      first_comment_unsupported: 400,
      cover_unsupported: 400,
      tiktok_privacy_conflict: 400,
      tiktok_ai_unsupported: 400,
      upstream_rejected: 400,
      plan_feature_unavailable: 403,
      post_limit_reached: 403,
      account_not_found: 404,
      media_not_found: 404,
      no_accounts_connected: 409,
      account_needs_reconnection: 409,
      media_expired: 409,
      duplicate_content: 409,
      tiktok_cannot_post: 409,
      idempotency_key_reused: 422,
      email_not_allowed: 400,
      invalid_json: 400,
      agent_signup_closed: 403,
      rate_limited: 429,
      signup_capacity: 503,
      unauthorized: 401,
      approval_requires_human: 403,
      reject_not_own_post: 403,
      retry_not_own_post: 403,
      cancel_not_own_post: 403,
      reschedule_not_own_post: 403,
      post_not_found: 404
    }
    for (const [code, status] of Object.entries(spec)) {
      const entry = catalogue[code as keyof typeof catalogue]
      expect(entry?.status, code).toBe(status)
      expect(entry.hint.length, code).toBeGreaterThan(10)
    }
    expect(catalogue.tiktok_cannot_post.retryable).toBe(true)
    expect(catalogue.rate_limited.retryable).toBe(true)
  })
})
