import { lookup, type LookupAddress, type LookupAllOptions, type LookupOneOptions } from "node:dns"
import { type IncomingMessage, request as httpRequest } from "node:http"
import { request as httpsRequest } from "node:https"
import { BlockList, isIP } from "node:net"

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
  /** Reading pages on loopback and private addresses is allowed (tests); off, such hosts are refused. */
  readonly allowPrivate: boolean
}

const PAGE_LIMITS = {
  timeoutMs: 5_000,
  maxBytes: 512 * 1024,
  accept: /^(text\/html|application\/xhtml\+xml)/i,
  truncate: true
}
const IMAGE_LIMITS = { timeoutMs: 5_000, maxBytes: 5 * 1024 * 1024, accept: /^image\//i, truncate: false }
const MAX_REDIRECTS = 3

const privateRanges = (() => {
  const list = new BlockList()
  for (const [net, prefix] of [
    ["0.0.0.0", 8],
    ["10.0.0.0", 8],
    ["100.64.0.0", 10],
    ["127.0.0.0", 8],
    ["169.254.0.0", 16],
    ["172.16.0.0", 12],
    ["192.0.0.0", 24],
    ["192.168.0.0", 16],
    ["198.18.0.0", 15],
    ["224.0.0.0", 4],
    ["240.0.0.0", 4]
  ] as const)
    list.addSubnet(net, prefix, "ipv4")
  for (const [net, prefix] of [
    ["::", 128],
    ["::1", 128],
    ["fc00::", 7],
    ["fe80::", 10],
    ["ff00::", 8]
  ] as const)
    list.addSubnet(net, prefix, "ipv6")
  return list
})()

/** Loopback, private, link-local (cloud metadata), multicast or unspecified: not for a public card. */
export const isPrivateAddress = (address: string): boolean => {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  if (mapped) return privateRanges.check(mapped[1]!, "ipv4")
  const family = isIP(address)
  return family === 0 ? true : privateRanges.check(address, family === 4 ? "ipv4" : "ipv6")
}

/** DNS lookup that refuses private answers at connect time (no gap between the check and the connection). */
const guardedLookup = (
  hostname: string,
  options: LookupOneOptions | LookupAllOptions,
  callback: (...args: Array<unknown>) => void
) =>
  lookup(hostname, { ...options, all: true }, (error, addresses: Array<LookupAddress>) => {
    if (error) return callback(error)
    const refused = addresses.find((a) => isPrivateAddress(a.address))
    if (refused) return callback(new Error(`${hostname} resolves to a private address (${refused.address}).`))
    if ((options as LookupAllOptions).all) return callback(null, addresses)
    callback(null, addresses[0]!.address, addresses[0]!.family)
  })

/** GET `url` (http or https only), following a few redirects, reading at most `maxBytes`; null for anything unexpected. */
export const fetchLimited = (
  url: string,
  limits: FetchLimits,
  redirects = 0
): Promise<{ readonly body: Buffer; readonly url: string } | null> =>
  new Promise((resolve) => {
    let target: URL
    try {
      target = new URL(url)
    } catch {
      return resolve(null)
    }
    if (target.protocol !== "http:" && target.protocol !== "https:") return resolve(null)
    const host = target.hostname.replace(/^\[|\]$/g, "")
    if (!limits.allowPrivate && isIP(host) !== 0 && isPrivateAddress(host)) return resolve(null)
    const request = target.protocol === "https:" ? httpsRequest : httpRequest
    const req = request(
      target,
      {
        method: "GET",
        headers: { "user-agent": "HeraldBot/1 (link preview)", accept: "text/html,image/*;q=0.9,*/*;q=0.1" },
        ...(limits.allowPrivate ? {} : { lookup: guardedLookup as never }),
        signal: AbortSignal.timeout(limits.timeoutMs)
      },
      (res: IncomingMessage) => {
        const status = res.statusCode ?? 0
        if (status >= 300 && status < 400 && res.headers.location !== undefined && redirects < MAX_REDIRECTS) {
          res.resume()
          return resolve(fetchLimited(new URL(res.headers.location, target).toString(), limits, redirects + 1))
        }
        if (status !== 200 || !limits.accept.test(res.headers["content-type"] ?? "")) {
          res.resume()
          return resolve(null)
        }
        const declared = Number(res.headers["content-length"])
        if (Number.isFinite(declared) && declared > limits.maxBytes && !limits.truncate) {
          res.destroy()
          return resolve(null)
        }
        const chunks: Array<Buffer> = []
        let size = 0
        res.on("data", (chunk: Buffer) => {
          size += chunk.length
          chunks.push(chunk)
          // A page's head is at its start: what is past the cap is not needed; an image past it is refused.
          if (size >= limits.maxBytes) {
            res.destroy()
            resolve(
              limits.truncate
                ? { body: Buffer.concat(chunks).subarray(0, limits.maxBytes), url: target.toString() }
                : null
            )
          }
        })
        res.on("end", () => resolve({ body: Buffer.concat(chunks), url: target.toString() }))
        res.on("error", () => resolve(null))
      }
    )
    req.on("error", () => resolve(null))
    req.end()
  })

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
export const readCard = async (url: string, allowPrivate: boolean): Promise<PageCard | null> => {
  const page = await fetchLimited(url, { ...PAGE_LIMITS, allowPrivate })
  return page === null ? null : parseCard(page.body.toString("utf8"), page.url)
}

/** The bytes of a card's image, or null. */
export const readImage = async (url: string, allowPrivate: boolean): Promise<Uint8Array | null> => {
  const image = await fetchLimited(url, { ...IMAGE_LIMITS, allowPrivate })
  return image === null ? null : new Uint8Array(image.body.buffer, image.body.byteOffset, image.body.length)
}
