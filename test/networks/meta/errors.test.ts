import { describe, expect, it } from "vitest"
import { publishErrorOf, usageWaitMs } from "../../../adapters/networks/meta/errors.ts"

const reply = (status: number, error: Record<string, unknown>, headers: Record<string, string> = {}) => ({
  status,
  headers: new Headers(headers),
  text: JSON.stringify({ error: { type: "OAuthException", fbtrace_id: "A1", ...error } })
})
const mapped = (status: number, error: Record<string, unknown>, headers?: Record<string, string>) => {
  const e = publishErrorOf("Instagram", reply(status, error, headers))
  return {
    code: e.code,
    retryable: e.retryable,
    reason: e.reason._tag,
    retryAfterMs: e.retryAfterMs,
    message: e.message
  }
}

/** Meta's one error shape, mapped once for the three networks (developers.facebook.com/docs/graph-api/guides/error-handling). */
describe("the Meta error mapper", () => {
  it("190 with any of its subcodes (expired, password changed, app removed...) is a revoked grant: reconnect, no renewal", () => {
    for (const subcode of [undefined, 458, 459, 460, 463, 464, 467]) {
      const e = mapped(400, {
        code: 190,
        message: "Error validating access token",
        ...(subcode === undefined ? {} : { error_subcode: subcode })
      })
      expect(e, String(subcode)).toMatchObject({
        code: "account_needs_reconnection",
        reason: "Revoked",
        retryable: false
      })
      expect(e.message).toContain("Error validating access token")
    }
    expect(
      mapped(400, { code: 368, error_subcode: 1_404_078, message: "Page publishing authorization required" })
    ).toMatchObject({ reason: "Revoked" })
  })

  it("throttling codes are rate limited, waiting what X-Business-Use-Case-Usage or X-App-Usage names, else five minutes", () => {
    for (const code of [4, 17, 32, 613, 80_001, 80_014])
      expect(mapped(400, { code, message: "limit" }), String(code)).toMatchObject({
        code: "rate_limited",
        reason: "RateLimited",
        retryable: true,
        retryAfterMs: 300_000
      })
    const buc = {
      "x-business-use-case-usage": JSON.stringify({
        "1234": [
          { type: "instagram", call_count: 100, total_cputime: 12, total_time: 9, estimated_time_to_regain_access: 23 }
        ]
      })
    }
    expect(mapped(400, { code: 80_002, message: "Instagram account limit" }, buc).retryAfterMs).toBe(23 * 60_000)
    expect(
      mapped(
        400,
        { code: 4, message: "App limit" },
        {
          "x-app-usage": JSON.stringify({
            call_count: 100,
            total_time: 20,
            total_cputime: 3,
            estimated_time_to_regain_access: 7
          })
        }
      ).retryAfterMs
    ).toBe(7 * 60_000)
    expect(
      mapped(400, { code: 9, error_subcode: 2_207_042, message: "Application request limit reached" })
    ).toMatchObject({ reason: "RateLimited", retryAfterMs: 3_600_000 })
    expect(usageWaitMs(new Headers({ "x-business-use-case-usage": "not json" }))).toBeUndefined()
  })

  it("506 and 1366051 are duplicate_content; policy blocks are upstream_rejected with Meta's words for the person", () => {
    expect(mapped(400, { code: 506, message: "Duplicate status message" })).toMatchObject({
      code: "duplicate_content",
      retryable: false
    })
    expect(
      mapped(400, { code: 100, error_subcode: 1_366_051, message: "These photos were already posted." })
    ).toMatchObject({ code: "duplicate_content" })
    expect(
      mapped(400, {
        code: 368,
        message: "(#368) deemed abusive",
        error_user_title: "Blocked",
        error_user_msg: "Your post goes against our Community Standards."
      })
    ).toMatchObject({
      code: "upstream_rejected",
      retryable: false,
      message: "Blocked: Your post goes against our Community Standards."
    })
    expect(mapped(400, { code: 100, message: "(#100) Invalid parameter" })).toMatchObject({
      code: "upstream_rejected",
      message: "(#100) Invalid parameter"
    })
  })

  it("transient answers, media Meta could not fetch just now, and 5xx are retried; missing permissions are refusals that say so", () => {
    expect(mapped(500, { code: 2, message: "Service temporarily unavailable", is_transient: true })).toMatchObject({
      code: "upstream_unavailable",
      retryable: true
    })
    expect(
      mapped(400, { code: 9004, error_subcode: 2_207_052, message: "The media could not be fetched from this uri" })
    ).toMatchObject({
      code: "upstream_unavailable",
      retryable: true
    })
    expect(
      publishErrorOf("Threads", { status: 502, headers: new Headers(), text: "<html>Bad gateway</html>" })
    ).toMatchObject({ code: "upstream_unavailable", retryable: true })
    const permission = mapped(403, { code: 200, message: "(#200) Permissions error" })
    expect(permission).toMatchObject({ code: "upstream_rejected", reason: "Refused" })
    expect(permission.message).toContain("a permission may be missing")
  })
})
