import { BlockList, isIP } from "node:net"

// A stop-gap copy of adapters/webhooks/addresses.ts's ranges (an adapter may not import another):
// the one address guard for every outbound call (issue 24) replaces both.

const loopback = new BlockList()
loopback.addSubnet("127.0.0.0", 8, "ipv4")
loopback.addAddress("::1", "ipv6")

const reserved = new BlockList()
for (const net of "0/8 10/8 100.64/10 169.254/16 172.16/12 192.0.0/24 192.0.2/24 192.88.99/24 192.168/16 198.18/15 198.51.100/24 203.0.113/24 224/4 240/4".split(
  " "
)) {
  const [prefix, bits] = net.split("/") as [string, string]
  reserved.addSubnet([...prefix.split("."), "0", "0", "0"].slice(0, 4).join("."), Number(bits), "ipv4")
}
for (const net of "::/128 64:ff9b::/96 64:ff9b:1::/48 100::/64 2001::/23 2001:db8::/32 2002::/16 fc00::/7 fe80::/10 fec0::/10 ff00::/8".split(
  " "
)) {
  const [prefix, bits] = net.split("/") as [string, string]
  reserved.addSubnet(prefix, Number(bits), "ipv6")
}

/** Where an address points: the public internet, this machine, or anything else (unparsable counts as private). */
export const classify = (raw: string): "public" | "loopback" | "private" => {
  const address = raw.replace(/^\[|\]$/g, "").replace(/%.*$/, "")
  const family = isIP(address)
  if (family === 0) return "private"
  const mapped = family === 6 ? /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] : undefined
  if (family === 6 && mapped === undefined && /^::ffff:/i.test(address)) return "private"
  const v4 = family === 4 ? address : mapped
  if (v4 !== undefined)
    return loopback.check(v4, "ipv4") ? "loopback" : reserved.check(v4, "ipv4") ? "private" : "public"
  return loopback.check(address, "ipv6") ? "loopback" : reserved.check(address, "ipv6") ? "private" : "public"
}
