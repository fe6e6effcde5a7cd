import type { Headers } from "effect/http"

const originOf = (url: string | undefined): string | undefined => {
  if (url === undefined) return undefined
  try {
    return new URL(url).origin
  } catch {
    return "null"
  }
}

/**
 * Whether a browser sent this form from another site (login CSRF: a page elsewhere posting its own
 * token to sign the visitor into the wrong workspace). Sec-Fetch-Site when the browser sends it,
 * then Origin, then Referer. Our own origin is HERALD_PUBLIC_URL's, or the one the request was
 * sent to (its Host, under either scheme). A request with none of these headers is not a
 * browser's form, so it is not refused; `Origin: null` (sandboxed or privacy-hidden) is.
 */
export const fromAnotherSite = (headers: Headers.Headers, publicOrigin: string): boolean => {
  const site = headers["sec-fetch-site"]
  if (site !== undefined && site !== "same-origin" && site !== "none") return true
  const origin = headers.origin ?? originOf(headers.referer)
  if (origin === undefined) return false
  if (origin === publicOrigin) return false
  const host = headers.host
  return host === undefined || (origin !== `http://${host}` && origin !== `https://${host}`)
}
