import { BlockList, isIP } from "node:net"

/** Where an address points: the public internet, this machine, or a private/reserved network. */
export type AddressKind = "public" | "loopback" | "private"

// Two lists per family: Node's BlockList would match an IPv4 address against IPv6 rules as IPv4-mapped.
const loopbackV4 = new BlockList()
loopbackV4.addSubnet("127.0.0.0", 8, "ipv4")

// THE list: everything that is not the public internet. Private, shared, link-local (cloud metadata),
// documentation, benchmark, multicast and reserved ranges; for IPv6 the local, documentation and
// reserved prefixes. IPv6 prefixes that carry an IPv4 address are not here: they are judged by it.
const reservedV4 = new BlockList()
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
  reservedV4.addSubnet(net, bits, "ipv4")
const reservedV6 = new BlockList()
for (const [net, bits] of [
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001::", 23],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8]
] as const)
  reservedV6.addSubnet(net, bits, "ipv6")

/** An IPv6 address as its eight 16-bit groups (a trailing dotted IPv4 read as two), or null. */
const groupsOf = (address: string): Array<number> | null => {
  let text = address
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)
  if (dotted !== null) {
    const [a, b, c, d] = dotted[1]!.split(".").map(Number) as [number, number, number, number]
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head, tail] = text.split("::") as [string, string | undefined]
  const part = (s: string | undefined) => (s === undefined || s === "" ? [] : s.split(":").map((g) => parseInt(g, 16)))
  const left = part(head),
    right = part(tail)
  const groups = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill(0), ...right]
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null
}

const ipv4Of = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`

/**
 * The IPv4 addresses an IPv6 address carries, by the prefix that says where: IPv4-compatible
 * (::a.b.c.d, the unspecified :: too, as 0.0.0.0), IPv4-mapped (::ffff:a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d), NAT64 (64:ff9b::/96),
 * 6to4 (2002::/16) and Teredo (2001::/32: its server, and its client with the bits inverted).
 */
export const embeddedIpv4 = (address: string): ReadonlyArray<string> => {
  const g = groupsOf(address)
  if (g === null) return []
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0)
  if (zeros(0, 5) && (g[5] === 0 || g[5] === 0xffff)) return [ipv4Of(g[6]!, g[7]!)]
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return [ipv4Of(g[6]!, g[7]!)]
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return [ipv4Of(g[6]!, g[7]!)]
  if (g[0] === 0x2002) return [ipv4Of(g[1]!, g[2]!)]
  if (g[0] === 0x2001 && g[1] === 0) return [ipv4Of(g[2]!, g[3]!), ipv4Of(g[6]! ^ 0xffff, g[7]! ^ 0xffff)]
  return []
}

const severity: Record<AddressKind, number> = { public: 0, loopback: 1, private: 2 }

const classifyIpv4 = (v4: string): AddressKind =>
  loopbackV4.check(v4, "ipv4") ? "loopback" : reservedV4.check(v4, "ipv4") ? "private" : "public"

/**
 * Classifies an IP address (v4 or v6, brackets and a zone allowed); anything unparsable counts as
 * private. An IPv6 address that carries an IPv4 one is judged by it (the strictest, for Teredo's two).
 */
export const classify = (raw: string): AddressKind => {
  const address = raw.replace(/^\[|\]$/g, "").replace(/%.*$/, "")
  const family = isIP(address)
  if (family === 0) return "private"
  if (family === 4) return classifyIpv4(address)
  const groups = groupsOf(address)
  if (groups?.join(":") === "0:0:0:0:0:0:0:1") return "loopback"
  const carried = embeddedIpv4(address)
  if (carried.length > 0)
    return carried.map(classifyIpv4).reduce((a, b) => (severity[b] > severity[a] ? b : a), "public" as AddressKind)
  return reservedV6.check(address, "ipv6") ? "private" : "public"
}
