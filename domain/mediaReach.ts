import { type Platform, platformNames } from "./platforms.ts"

/** Networks that download a post's media themselves from a URL Herald gives (Meta's three, Google Business Profile's sourceUrl). */
export const fetchesMediaByUrl: ReadonlySet<Platform> = new Set<Platform>([
  "facebook",
  "instagram",
  "threads",
  "google_business"
])
/** Networks that download photos (not videos, which Herald uploads) by URL: TikTok's photo posts. */
export const fetchesPhotosByUrl: ReadonlySet<Platform> = new Set<Platform>(["tiktok"])

/** The targets' networks that would download this post's media by URL. */
export const fetchingPlatforms = (
  platforms: ReadonlyArray<Platform>,
  media: ReadonlyArray<{ readonly type: string }>
): ReadonlyArray<Platform> =>
  media.length === 0
    ? []
    : platforms.filter(
        (p) => fetchesMediaByUrl.has(p) || (fetchesPhotosByUrl.has(p) && media.every((m) => m.type === "image"))
      )

const ipv4 = (host: string): ReadonlyArray<number> | null => {
  const parts = host.split(".")
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) return null
  return parts.map(Number)
}

/** An IPv4-mapped IPv6 address (`::ffff:c0a8:1`, as URL writes `::ffff:192.168.0.1`) as its IPv4 parts. */
const mappedIpv4 = (host: string): ReadonlyArray<number> | null => {
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host)
  if (hex === null) return host.startsWith("::ffff:") ? ipv4(host.slice(7)) : null
  const [hi, lo] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)]
  return [hi >> 8, hi & 255, lo >> 8, lo & 255]
}

/** Names that only resolve inside a network, or never (RFC 6761 and common private suffixes). */
const privateSuffixes = [
  ".localhost",
  ".local",
  ".internal",
  ".lan",
  ".home.arpa",
  ".test",
  ".example",
  ".invalid",
  ".intranet",
  ".corp"
]

/**
 * Why a server on the internet could not fetch `url`: loopback, a private, link-local or shared
 * address, or a name that only resolves inside a network. Null when nothing says so (a public
 * name can still be firewalled; this catches the configurations that can never work).
 */
export const unreachableFromOutside = (url: string): string | null => {
  if (!URL.canParse(url)) return "it is not a URL"
  const host = new URL(url).hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "")
  if (host === "localhost" || privateSuffixes.some((s) => host.endsWith(s) || host === s.slice(1)))
    return "a name that only resolves on this machine or inside a network"
  const v4 = ipv4(host) ?? mappedIpv4(host)
  if (v4 !== null) {
    const [a, b] = v4 as [number, number]
    if (a === 127 || a === 0) return "a loopback address"
    if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return "a private address"
    if (a === 169 && b === 254) return "a link-local address"
    if (a === 100 && b >= 64 && b <= 127) return "a shared (carrier-grade NAT) address"
    return null
  }
  if (host.includes(":")) {
    if (host === "::1" || host === "::") return "a loopback address"
    if (/^f[cd][0-9a-f]{2}:/.test(host)) return "a private address"
    if (/^fe[89ab][0-9a-f]:/.test(host)) return "a link-local address"
    return null
  }
  if (!host.includes(".")) return "a name without a domain, which only resolves inside a network"
  return null
}

/**
 * The dry run's warning when some targets download media by URL and the URL Herald would give them
 * (`mediaUrl`, under HERALD_PUBLIC_URL for local storage) cannot be reached from the internet.
 */
export const mediaFetchWarning = (platforms: ReadonlyArray<Platform>, mediaUrl: string): string | null => {
  const fetching = [...new Set(platforms.filter((p) => fetchesMediaByUrl.has(p) || fetchesPhotosByUrl.has(p)))]
  if (fetching.length === 0) return null
  const why = unreachableFromOutside(mediaUrl)
  if (why === null) return null
  const host = URL.canParse(mediaUrl) ? new URL(mediaUrl).host : mediaUrl
  return `${fetching.map((p) => platformNames[p]).join(", ")} download media from Herald by URL, but ${host} is ${why}: set HERALD_PUBLIC_URL to an address the internet can reach (or store media on S3), or these targets will fail.`
}
