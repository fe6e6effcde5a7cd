import { Effect } from "effect"
import { HttpClientRequest } from "effect/http"
import { classify } from "../../outbound/addresses.ts"
import { Outbound, type Policy, policies } from "../../outbound/client.ts"

/** What a page says about itself (OpenGraph, else its title and description). */
export interface PageCard {
  readonly title: string
  readonly description: string
  /** Absolute http(s) URL of its preview image, if any. */
  readonly imageUrl: string | null
}

export interface FetchLimits {
  readonly timeoutMs: number
  readonly maxBytes: number
  /** What the answer's Content-Type must be. */
  readonly accept: RegExp
  /** Past maxBytes, keep the start (a page's head) rather than give up (an image). */
  readonly truncate: boolean
  /** Reading pages on loopback addresses is allowed (tests); off, such hosts are refused, private ones always. */
  readonly allowPrivate: boolean
}

const PAGE = /^(text\/html|application\/xhtml\+xml)/i
const IMAGE = /^image\//i

/** Loopback, private, link-local (cloud metadata), multicast or unspecified: not for a public card (the one guard's list). */
export const isPrivateAddress = (address: string): boolean => classify(address) !== "public"

/**
 * GET `url` through the outbound client under `policy` (the address guard on every hop, its redirects,
 * time and cap); the body when the answer is a 200 of the `accept`ed type, else null.
 */
const readWith = (url: string, policy: Policy, accept: RegExp) =>
  Effect.gen(function* () {
    const outbound = yield* Outbound
    const request = HttpClientRequest.get(url, {
      headers: { "user-agent": "HeraldBot/1 (link preview)", accept: "text/html,image/*;q=0.9,*/*;q=0.1" }
    })
    const response = yield* outbound.client(policy).execute(request)
    if (response.status !== 200 || !accept.test(response.headers["content-type"] ?? "")) return null
    const body = Buffer.from(yield* response.arrayBuffer)
    return { body, url: response.request.url }
  }).pipe(Effect.orElseSucceed(() => null))

/** GET `url` (http or https only), following a few redirects, reading at most `maxBytes`; null for anything unexpected. */
export const fetchLimited = (
  url: string,
  limits: FetchLimits
): Promise<{ readonly body: Buffer; readonly url: string } | null> =>
  Effect.runPromise(
    readWith(
      url,
      {
        ...policies.page,
        timeoutMs: limits.timeoutMs,
        maxBodyBytes: limits.maxBytes,
        overflow: limits.truncate ? "truncate" : "fail",
        allowLoopback: limits.allowPrivate
      },
      limits.accept
    )
  )

const entities: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " }
const decode = (s: string) =>
  s
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name[0] === "#") {
        const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10)
        return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole
      }
      return entities[name.toLowerCase()] ?? whole
    })
    .replace(/\s+/g, " ")
    .trim()

const attribute = (tag: string, name: string): string | null => {
  const m = new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, "i").exec(tag)
  return m === null ? null : (m[1] ?? m[2] ?? m[3] ?? null)
}

/** The card a page describes: OpenGraph first, then <title> and the description meta tag. */
export const parseCard = (html: string, pageUrl: string): PageCard | null => {
  const meta = new Map<string, string>()
  for (const [tag] of html.matchAll(/<meta\b[^>]*>/gi)) {
    const key = (attribute(tag, "property") ?? attribute(tag, "name"))?.toLowerCase()
    const content = attribute(tag, "content")
    if (key !== undefined && content !== null && !meta.has(key)) meta.set(key, decode(content))
  }
  const titleTag = /<title\b[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1]
  const title =
    meta.get("og:title") ?? meta.get("twitter:title") ?? (titleTag === undefined ? undefined : decode(titleTag))
  if (title === undefined || title === "") return null
  const image = meta.get("og:image") ?? meta.get("og:image:url") ?? meta.get("twitter:image")
  let imageUrl: string | null = null
  try {
    const resolved = image === undefined ? null : new URL(image, pageUrl)
    imageUrl =
      resolved !== null && (resolved.protocol === "http:" || resolved.protocol === "https:")
        ? resolved.toString()
        : null
  } catch {
    /* a broken image URL: a card without a picture */
  }
  return {
    title: title.slice(0, 300),
    description: (meta.get("og:description") ?? meta.get("twitter:description") ?? meta.get("description") ?? "").slice(
      0,
      1000
    ),
    imageUrl
  }
}

/** The card for `url`, or null when the page cannot be read in time or says nothing usable. */
export const readCard = (url: string): Effect.Effect<PageCard | null> =>
  Effect.map(readWith(url, policies.page, PAGE), (page) =>
    page === null ? null : parseCard(page.body.toString("utf8"), page.url)
  )

/** The bytes of a card's image, or null. */
export const readImage = (url: string): Effect.Effect<Uint8Array | null> =>
  Effect.map(readWith(url, policies.image, IMAGE), (image) =>
    image === null ? null : new Uint8Array(image.body.buffer, image.body.byteOffset, image.body.length)
  )
