import { Result } from "effect"
import type { HttpServerRequest } from "effect/http"
import { HttpServerResponse } from "effect/http"
import { catalogue, type ErrorCode, type HeraldError, messageOf } from "../../../domain/errors.ts"
import { chooseLocale } from "../../../domain/signup.ts"
import type { Locale } from "../../../domain/workspace.ts"
import { strings } from "./assets.ts"
import { escapeHtml, page } from "./html.ts"

// The server-rendered pages' words (sign-in, claim, connect, inbox): strings.json, the app's one source.

/** A page's words in the person's language, `{name}` filled from vars. */
export const say = (locale: Locale, key: string, vars: Readonly<Record<string, string>> = {}) =>
  (strings[locale][key] ?? strings.en[key] ?? key).replace(/\{(\w+)\}/g, (_, name: string) => vars[name] ?? "")

/**
 * A page's language: `lang` when a link or the app says it (the workspace's), else the browser's
 * Accept-Language. `lang` only picks the words, so a wrong one changes nothing else.
 */
export const localeOf = (request: HttpServerRequest.HttpServerRequest, lang: string | null = null): Locale =>
  lang === "ja" || lang === "en"
    ? lang
    : Result.getOrElse(chooseLocale(undefined, request.headers["accept-language"]), () => "en" as const)

/**
 * An error page in the person's language: Japanese words from strings.json where they exist for the code,
 * else the catalogue's message (the one source of the English words). A 429 says when to come back, as the API's does.
 */
export const errorPage = (error: HeraldError, locale: Locale = "en") => {
  const words = strings[locale]
  const message = words[`error.${error.code}`] ?? messageOf(error)
  const hint = words[`error.${error.code}.hint`] ?? catalogue[error.code as ErrorCode]?.hint ?? ""
  const shown = page(
    error.code === "connect_workspace_mismatch"
      ? say(locale, "connect.otherWorkspace")
      : (words["error.title"] ?? "Something is not right"),
    `<p>${escapeHtml(message)}</p><p class="muted">${escapeHtml(hint)}</p>`,
    catalogue[error.code as ErrorCode]?.status ?? 400,
    locale
  )
  const wait = (error.details as { retryAfterSeconds?: number } | undefined)?.retryAfterSeconds
  return wait === undefined ? shown : HttpServerResponse.setHeader(shown, "retry-after", String(wait))
}
