import { Effect } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { hashSource } from "./pages/html.ts"

const CSP = "content-security-policy"

// API answers and anything else without its own policy: nothing in them may load or run anything.
const NOTHING = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

/**
 * Headers every answer carries: no MIME sniffing, no framing (clickjacking), no Referer to other
 * sites (sign-in and claim tokens travel in page URLs), and a Content-Security-Policy: the page's
 * own (pages set one naming their inline style and scripts) or one that allows nothing.
 */
export const securityHeaders = <E, R>(app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
  Effect.map(app, (response) =>
    HttpServerResponse.setHeaders(response, { ...SECURITY_HEADERS, [CSP]: response.headers[CSP] ?? NOTHING })
  )

/** The headers of an answer without a policy of its own (Node-level answers use them as they are). */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  // Same-origin pages still see where a visitor came from (and browsers keep sending Origin on our
  // own forms, which the login-CSRF check reads); no other site ever gets a URL of ours with a token in it.
  "referrer-policy": "same-origin",
  [CSP]: NOTHING
}

const docsPolicies = new WeakMap<object, string>()

/**
 * The API docs page (Scalar, inlined by Effect and generated from the API definition alone, with
 * nothing from the request in it): its own two inline scripts by hash; Scalar adds style elements
 * and inline styles as it renders, so styles are not restricted.
 */
const docsPolicy = (response: HttpServerResponse.HttpServerResponse): string | undefined => {
  const body = response.body
  if (body._tag !== "Uint8Array" || body.text === undefined) return undefined
  let policy = docsPolicies.get(body)
  if (policy === undefined) {
    const scripts = [...body.text.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => hashSource(m[1]))
    policy = [
      "default-src 'none'",
      `script-src ${scripts.join(" ")}`,
      "style-src 'unsafe-inline'",
      "img-src 'self' data:",
      "font-src 'self' data:",
      "connect-src 'self'",
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'"
    ].join("; ")
    docsPolicies.set(body, policy)
  }
  return policy
}

/** Route middleware for the docs page: sets its policy (the page is the same object on every answer). */
export const docsPageMiddleware = HttpRouter.middleware((app) =>
  Effect.map(app, (response) => {
    const policy = docsPolicy(response)
    return policy === undefined ? response : HttpServerResponse.setHeader(response, CSP, policy)
  })
)
