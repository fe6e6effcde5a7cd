import { Result } from "effect"
import { describe, expect, it } from "vitest"
import type { Account } from "../../domain/account.ts"
import type { Platform } from "../../domain/platforms.ts"
import { decodeCreatePost, networkOptionsOf } from "../../domain/postRequest.ts"
import { checkPost } from "../../domain/postRules.ts"

/** A create-post body with `googleBusiness`: the fields refused and the notes, or what the post keeps. */
const withOptions = (googleBusiness: unknown) => {
  const result = decodeCreatePost({ accountIds: ["acc_1"], content: "Fresh bread", googleBusiness })
  return Result.isFailure(result)
    ? {
        code: result.failure.code,
        fields: result.failure.details?.fields as ReadonlyArray<string>,
        detail: result.failure.detail ?? ""
      }
    : { options: networkOptionsOf(result.success) }
}

const event = { title: "Bread workshop", startDate: "2026-12-05", endDate: "2026-12-05" }

describe("the googleBusiness object of a post request (domain/googleBusiness.ts)", () => {
  it("an update, an event and an offer decode and travel in the post's network options", () => {
    const offer = {
      topicType: "OFFER",
      event: { ...event, startTime: "09:00", endTime: "18:30" },
      offer: { couponCode: "BREAD10", redeemOnlineUrl: "https://alices.bakery/offer" }
    }
    expect(withOptions(offer)).toEqual({ options: { googleBusiness: offer } })
    expect(withOptions({ callToAction: { actionType: "CALL" } })).toEqual({
      options: { googleBusiness: { callToAction: { actionType: "CALL" } } }
    })
  })

  it("EVENT and OFFER need the event; STANDARD takes none, and only an OFFER takes offer", () => {
    expect(withOptions({ topicType: "EVENT" })).toMatchObject({
      code: "validation_failed",
      fields: ["googleBusiness.event"],
      detail: expect.stringContaining("A Google Business EVENT post needs googleBusiness.event")
    })
    expect(withOptions({ event })).toMatchObject({ fields: ["googleBusiness.event"] })
    expect(withOptions({ topicType: "EVENT", event, offer: { couponCode: "X" } })).toMatchObject({
      fields: ["googleBusiness.offer"],
      detail: "googleBusiness.offer is for topicType OFFER only."
    })
  })

  it("dates are real days, times HH:MM given both or neither, and the event ends after it starts", () => {
    expect(withOptions({ topicType: "EVENT", event: { ...event, startDate: "2026-02-30" } })).toMatchObject({
      fields: ["googleBusiness.event.startDate"]
    })
    expect(withOptions({ topicType: "EVENT", event: { ...event, startTime: "9:00", endTime: "24:00" } })).toMatchObject(
      {
        fields: ["googleBusiness.event.startTime", "googleBusiness.event.endTime"]
      }
    )
    expect(withOptions({ topicType: "EVENT", event: { ...event, startTime: "09:00" } })).toMatchObject({
      fields: ["googleBusiness.event.endTime"],
      detail: expect.stringContaining("or neither (an all-day event)")
    })
    expect(
      withOptions({ topicType: "EVENT", event: { ...event, startTime: "18:00", endTime: "09:00" } })
    ).toMatchObject({ fields: ["googleBusiness.event.endDate"], detail: "The event must end after it starts." })
    expect(withOptions({ topicType: "EVENT", event: { ...event, title: "  " } })).toMatchObject({
      fields: ["googleBusiness.event.title"]
    })
  })

  it("a button needs an http(s) link except CALL, which takes none; an OFFER takes no button", () => {
    expect(withOptions({ callToAction: { actionType: "BOOK" } })).toMatchObject({
      fields: ["googleBusiness.callToAction.url"],
      detail: "A BOOK button needs googleBusiness.callToAction.url, an http(s) URL."
    })
    expect(withOptions({ callToAction: { actionType: "CALL", url: "https://x.test" } })).toMatchObject({
      fields: ["googleBusiness.callToAction.url"]
    })
    expect(
      withOptions({ topicType: "OFFER", event, callToAction: { actionType: "SHOP", url: "https://x.test" } })
    ).toMatchObject({
      fields: ["googleBusiness.callToAction"],
      detail: expect.stringContaining("offer.redeemOnlineUrl instead")
    })
    expect(withOptions({ callToAction: { actionType: "DONATE", url: "https://x.test" } })).toMatchObject({
      code: "validation_failed",
      fields: ["googleBusiness.callToAction.actionType"]
    })
    expect(withOptions({ languageCode: "english please" })).toMatchObject({ fields: ["googleBusiness.languageCode"] })
  })
})

describe("googleBusiness and the post's targets (domain/postRules.ts)", () => {
  const NOW = Date.parse("2026-11-21T10:00:00Z")
  const account = (platform: Platform): Account => ({
    id: `acc_${platform}`,
    workspaceId: "ws_1",
    platform,
    name: platform,
    username: platform,
    avatarUrl: null,
    status: "connected",
    connectedAt: NOW,
    externalId: `${platform}-1`
  })
  const warningsFor = (platform: Platform) => {
    const request = decodeCreatePost({
      accountIds: [`acc_${platform}`],
      content: "Fresh bread",
      googleBusiness: { callToAction: { actionType: "CALL" } }
    })
    if (Result.isFailure(request)) throw new Error("expected a valid request")
    const checked = checkPost(request.success, {
      now: NOW,
      accounts: [account("google_business"), account("x")],
      media: []
    })
    return Result.isSuccess(checked) ? checked.success.warnings : checked.failure.code
  }

  it("is ignored with a warning when no Google Business Profile location is targeted", () => {
    expect(warningsFor("x")).toEqual(["googleBusiness is ignored: no Google Business Profile account is targeted."])
    expect(warningsFor("google_business")).toEqual([])
  })
})
