import type { PublishRequest } from "../../../application/ports/Publishers.ts"
import type { GoogleBusinessOptions } from "../../../domain/contract/postRequest.ts"

/** Google's Date and TimeOfDay from Herald's YYYY-MM-DD and HH:MM (checked when the post was made). */
const dateOf = (text: string) => {
  const [year, month, day] = text.split("-").map(Number)
  return { year, month, day }
}
const timeOf = (text: string) => {
  const [hours, minutes] = text.split(":").map(Number)
  return { hours, minutes }
}

/** The event (or offer) part: its title and schedule, times left out for an all-day event. */
const eventOf = (event: NonNullable<GoogleBusinessOptions["event"]>) => ({
  title: event.title.trim(),
  schedule: {
    startDate: dateOf(event.startDate),
    ...(event.startTime === undefined ? {} : { startTime: timeOf(event.startTime) }),
    endDate: dateOf(event.endDate),
    ...(event.endTime === undefined ? {} : { endTime: timeOf(event.endTime) })
  }
})

/** A text compared with what Google shows back: spaces collapsed, as Google may trim them. */
export const comparable = (text: string) => text.replace(/\s+/g, " ").trim().normalize("NFC")

/**
 * The v4 LocalPost to create: the text as its summary, the post's googleBusiness settings, and its one
 * image as a PHOTO Google fetches from `imageUrl`.
 */
export const localPostOf = (request: PublishRequest, defaultLanguage: string, imageUrl: string | null) => {
  const options = request.options?.googleBusiness
  const topicType = options?.topicType ?? "STANDARD"
  const action = options?.callToAction
  const offer = options?.offer
  return {
    languageCode: options?.languageCode ?? defaultLanguage,
    ...(request.content.trim() === "" ? {} : { summary: request.content }),
    topicType,
    ...(action === undefined || topicType === "OFFER"
      ? {}
      : { callToAction: { actionType: action.actionType, ...(action.url === undefined ? {} : { url: action.url }) } }),
    ...(imageUrl === null ? {} : { media: [{ mediaFormat: "PHOTO", sourceUrl: imageUrl }] }),
    ...(topicType !== "STANDARD" && options?.event !== undefined ? { event: eventOf(options.event) } : {}),
    ...(topicType === "OFFER" && offer !== undefined
      ? {
          offer: {
            ...(offer.couponCode === undefined ? {} : { couponCode: offer.couponCode }),
            ...(offer.redeemOnlineUrl === undefined ? {} : { redeemOnlineUrl: offer.redeemOnlineUrl }),
            ...(offer.termsConditions === undefined ? {} : { termsConditions: offer.termsConditions })
          }
        }
      : {})
  }
}
