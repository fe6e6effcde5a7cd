import type { GoogleBusinessOptions } from "./contract/postRequest.ts"

/** One problem of a post's googleBusiness object: the field, and what to change. */
export interface OptionProblem {
  readonly field: string
  readonly note: string
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/
const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/
const HTTP_URL = /^https?:\/\/[^\s/?#]+\S*$/i

const validDate = (text: string) => {
  const m = DATE.exec(text)
  if (m === null) return false
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])]
  const at = new Date(Date.UTC(y, mo - 1, d))
  return at.getUTCFullYear() === y && at.getUTCMonth() === mo - 1 && at.getUTCDate() === d
}

/**
 * Google's LocalPost rules Herald can check before sending: which objects each topic takes, dates,
 * times and links (texts are checked with the request's other texts).
 */
export const checkGoogleBusiness = (options: GoogleBusinessOptions): ReadonlyArray<OptionProblem> => {
  const problems: Array<OptionProblem> = []
  const topic = options.topicType ?? "STANDARD"
  const event = options.event
  if (topic !== "STANDARD" && event === undefined)
    problems.push({
      field: "googleBusiness.event",
      note: `A Google Business ${topic} post needs googleBusiness.event: {title, startDate, endDate} (and startTime/endTime).`
    })
  if (topic === "STANDARD" && event !== undefined)
    problems.push({
      field: "googleBusiness.event",
      note: "googleBusiness.event is for topicType EVENT or OFFER; set the topicType, or leave event out."
    })
  if (options.offer !== undefined && topic !== "OFFER")
    problems.push({ field: "googleBusiness.offer", note: "googleBusiness.offer is for topicType OFFER only." })
  if (event !== undefined) {
    for (const name of ["startDate", "endDate"] as const)
      if (!validDate(event[name]))
        problems.push({
          field: `googleBusiness.event.${name}`,
          note: `googleBusiness.event.${name} is a day, YYYY-MM-DD.`
        })
    for (const name of ["startTime", "endTime"] as const) {
      const value = event[name]
      if (value !== undefined && !TIME.test(value))
        problems.push({
          field: `googleBusiness.event.${name}`,
          note: `googleBusiness.event.${name} is a time, HH:MM (24 hours).`
        })
    }
    if ((event.startTime === undefined) !== (event.endTime === undefined))
      problems.push({
        field: "googleBusiness.event.endTime",
        note: "Give both googleBusiness.event.startTime and endTime, or neither (an all-day event)."
      })
    // YYYY-MM-DD and HH:MM compare as text in time order.
    const start = `${event.startDate}T${event.startTime ?? "00:00"}`
    const end = `${event.endDate}T${event.endTime ?? "23:59"}`
    if (problems.length === 0 && end <= start)
      problems.push({ field: "googleBusiness.event.endDate", note: "The event must end after it starts." })
  }
  const action = options.callToAction
  if (action !== undefined) {
    if (topic === "OFFER")
      problems.push({
        field: "googleBusiness.callToAction",
        note: "Google ignores a call to action on an OFFER: give googleBusiness.offer.redeemOnlineUrl instead."
      })
    else if (action.actionType === "CALL" && action.url !== undefined)
      problems.push({
        field: "googleBusiness.callToAction.url",
        note: "A CALL button dials the location's phone: leave googleBusiness.callToAction.url out."
      })
    else if (action.actionType !== "CALL" && (action.url === undefined || !HTTP_URL.test(action.url)))
      problems.push({
        field: "googleBusiness.callToAction.url",
        note: `A ${action.actionType} button needs googleBusiness.callToAction.url, an http(s) URL.`
      })
  }
  const redeem = options.offer?.redeemOnlineUrl
  if (redeem !== undefined && !HTTP_URL.test(redeem))
    problems.push({
      field: "googleBusiness.offer.redeemOnlineUrl",
      note: "googleBusiness.offer.redeemOnlineUrl is an http(s) URL."
    })
  if (options.languageCode !== undefined && !/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(options.languageCode))
    problems.push({
      field: "googleBusiness.languageCode",
      note: "googleBusiness.languageCode is a language tag, e.g. en or fr-CA."
    })
  return problems
}
