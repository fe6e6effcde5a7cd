import { BlockList, isIP } from "node:net"

/** Where an address points: the public internet, this machine, or a private/reserved network. */
export type AddressKind = "public" | "loopback" | "private"

const loopback = new BlockList()
loopback.addSubnet("127.0.0.0", 8, "ipv4")
loopback.addAddress("::1", "ipv6")

// Everything that is not the public internet: private, shared, link-local, documentation, benchmark,
// multicast and reserved ranges, and the IPv6 prefixes that embed or translate IPv4 or are local.
const reserved = new BlockList()
for (const [net, bits] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4]
] as const)
  reserved.addSubnet(net, bits, "ipv4")
for (const [net, bits] of [
  ["::", 128],
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001::", 23],
  ["2001:db8::", 32],
  ["2002::", 16],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8]
] as const)
  reserved.addSubnet(net, bits, "ipv6")

/** The IPv4 address inside an IPv4-mapped IPv6 address (::ffff:10.0.0.1 or ::ffff:a00:1). */
const mappedIpv4 = (address: string): string | null => {
  const m = /^(?:0{0,4}:){0,5}:?ffff:(.+)$/i.exec(address)
  if (m === null) return null
  const rest = m[1]!
  if (isIP(rest) === 4) return rest
  const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(rest)
  if (hex === null) return null
  const hi = parseInt(hex[1]!, 16),
    lo = parseInt(hex[2]!, 16)
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`
}

/** Classifies an IP address (v4 or v6, brackets allowed); anything unparsable counts as private. */
export const classify = (raw: string): AddressKind => {
  const address = raw.replace(/^\[|\]$/g, "").replace(/%.*$/, "")
  const family = isIP(address)
  if (family === 0) return "private"
  const v4 = family === 6 ? mappedIpv4(address) : address
  if (v4 !== null) {
    if (loopback.check(v4, "ipv4")) return "loopback"
    return reserved.check(v4, "ipv4") ? "private" : "public"
  }
  if (loopback.check(address, "ipv6")) return "loopback"
  return reserved.check(address, "ipv6") ? "private" : "public"
}
