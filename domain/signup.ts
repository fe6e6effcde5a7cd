import { Result } from "effect"
import { fail, type HeraldError, invalidFields } from "./errors.ts"
import { checkText, describeTextProblem } from "./text.ts"
import type { Locale } from "./workspace.ts"

// Reserved by RFC 2606/6761 or used as placeholders; never a real owner's inbox.
const exampleDomains = new Set([
  "example.com",
  "example.org",
  "example.net",
  "example.edu",
  "test.com",
  "domain.com",
  "email.com",
  "yourdomain.com",
  "yourcompany.com",
  "company.com",
  "mydomain.com",
  "sample.com",
  "foo.com",
  "bar.com",
  "acme.com",
  "localhost"
])
const reservedTlds = new Set(["test", "example", "invalid", "localhost", "local", "internal"])
// Well-known throwaway inbox providers.
const disposableDomains = new Set([
  "mailinator.com",
  "guerrillamail.com",
  "guerrillamail.net",
  "sharklasers.com",
  "10minutemail.com",
  "10minutemail.net",
  "temp-mail.org",
  "tempmail.com",
  "tempmail.net",
  "throwawaymail.com",
  "yopmail.com",
  "yopmail.net",
  "trashmail.com",
  "getnada.com",
  "nada.email",
  "dispostable.com",
  "maildrop.cc",
  "mailnesia.com",
  "fakeinbox.com",
  "emailondeck.com",
  "mintemail.com",
  "mohmal.com",
  "burnermail.io",
  "spamgourmet.com",
  "tempr.email",
  "discard.email",
  "33mail.com",
  "mailcatch.com",
  "moakt.com",
  "tempail.com",
  "getairmail.com",
  "temp-mail.io",
  "emailfake.com",
  "mytemp.email"
])
// Local parts that stand for "put a real address here" whatever the domain.
const placeholderLocal =
  /^(your[._-]?(name|email|address|mail)?|name|someone|somebody|nobody|placeholder|null|undefined|x{3,}|changeme|no-?reply|john\.?doe|jane\.?doe)$/

const emailShape =
  /^[^\s@"<>()[\],;:\\]+@([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+)$/

/** Normalises and checks an owner address. */
export const checkEmail = (raw: string): Result.Result<string, HeraldError> => {
  const problem = checkText(raw, { kind: "label", max: 254, required: true })
  if (problem !== null) return Result.fail(invalidFields(["email"], describeTextProblem("email", problem)))
  const email = raw.trim().toLowerCase()
  const m = emailShape.exec(email)
  if (email.length > 254 || !m) return Result.fail(invalidFields(["email"], "email is not a valid e-mail address."))
  const domain = m[1]
  const local = email.slice(0, email.indexOf("@"))
  const tld = domain.slice(domain.lastIndexOf(".") + 1)
  const parent = (d: string) => d.split(".").slice(-2).join(".")
  if (exampleDomains.has(domain) || exampleDomains.has(parent(domain)) || reservedTlds.has(tld))
    return Result.fail(
      fail(
        "email_not_allowed",
        { fields: ["email"], reason: "example" },
        "Example and reserved domains cannot own a workspace."
      )
    )
  if (disposableDomains.has(domain) || disposableDomains.has(parent(domain)))
    return Result.fail(
      fail(
        "email_not_allowed",
        { fields: ["email"], reason: "disposable" },
        "Disposable addresses cannot own a workspace."
      )
    )
  if (placeholderLocal.test(local.replace(/\+.*$/, "")))
    return Result.fail(
      fail(
        "email_not_allowed",
        { fields: ["email"], reason: "placeholder" },
        "Placeholder addresses cannot own a workspace."
      )
    )
  return Result.succeed(email)
}

/** Checks a display name (the label rules of text.ts); null when absent. */
export const checkName = (field: string, value: unknown, max = 100): Result.Result<string | null, HeraldError> => {
  if (value === undefined || value === null) return Result.succeed(null)
  if (typeof value !== "string") return Result.fail(invalidFields([field]))
  const problem = checkText(value, { kind: "label", max, required: true })
  if (problem !== null)
    return Result.fail(
      invalidFields(
        [field],
        problem.reason === "too_long" || problem.reason === "empty"
          ? `${field} must be 1-${max} characters.`
          : describeTextProblem(field, problem)
      )
    )
  return Result.succeed(value.trim())
}

/** Locale: the field wins, then Accept-Language (by quality), else English. */
export const chooseLocale = (
  field: unknown,
  acceptLanguage: string | undefined
): Result.Result<Locale, HeraldError> => {
  if (field !== undefined && field !== null) {
    if (field === "en" || field === "ja") return Result.succeed(field)
    return Result.fail(invalidFields(["locale"], 'locale must be "en" or "ja".'))
  }
  if (!acceptLanguage) return Result.succeed("en")
  const ranked = acceptLanguage
    .split(",")
    .map((part, i) => {
      const [tag, ...params] = part.trim().toLowerCase().split(";")
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="))
      return { lang: tag.split("-")[0], q: q ? Number(q.slice(2)) : 1, i }
    })
    .filter((r) => r.q > 0 && !Number.isNaN(r.q))
    .sort((a, b) => b.q - a.q || a.i - b.i)
  const first = ranked.find((r) => r.lang === "en" || r.lang === "ja")
  return Result.succeed(first ? (first.lang as Locale) : "en")
}

/** Shows an address without giving it away whole: `j***@example.org`. */
export const maskEmail = (email: string): string => {
  const at = email.indexOf("@")
  return `${email.slice(0, 1)}***${email.slice(at)}`
}
