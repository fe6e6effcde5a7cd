import { Option, Result } from "effect"
import type { HttpServerRequest } from "effect/http"
import { IpNetwork, NetAddress } from "effect/net"
import type { HttpSettingsShape } from "../../application/config.ts"

/** Which X-Forwarded-For entries to believe (HERALD_TRUST_PROXY). */
export type ProxyTrust =
  | { readonly kind: "none" }
  | { readonly kind: "hops"; readonly hops: number }
  | { readonly kind: "networks"; readonly networks: ReadonlyArray<IpNetwork.IpNetwork> }

const parseAddress = (input: string | undefined): NetAddress.IpAddress | undefined => {
  if (input === undefined) return undefined
  const bare = input.startsWith("[") && input.endsWith("]") ? input.slice(1, -1) : input
  const ip = NetAddress.ipFromString(bare)
  if (Result.isSuccess(ip)) return NetAddress.toCanonical(ip.success)
  const withPort = NetAddress.inetAddressFromString(input) // some balancers append the client's port
  return Result.isSuccess(withPort) ? NetAddress.toCanonical(withPort.success.address) : undefined
}

const parseNetwork = (input: string): IpNetwork.IpNetwork | undefined => {
  if (input.includes("/")) return Result.getOrUndefined(IpNetwork.fromString(input))
  const address = parseAddress(input)
  return address === undefined
    ? undefined
    : IpNetwork.fromAddressUnsafe(address, NetAddress.isIpv4Address(address) ? 32 : 128)
}

/** HERALD_TRUST_PROXY: "false" (the default), a number of proxies in front, or proxy addresses and CIDRs separated by commas. */
export const parseProxyTrust = (text: string): Result.Result<ProxyTrust, string> => {
  const value = text.trim().toLowerCase()
  if (value === "" || value === "false" || value === "0") return Result.succeed({ kind: "none" })
  if (/^\d+$/.test(value)) return Result.succeed({ kind: "hops", hops: Number(value) })
  const networks: Array<IpNetwork.IpNetwork> = []
  for (const item of value
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "")) {
    const network = parseNetwork(item)
    if (network === undefined)
      return Result.fail(
        `HERALD_TRUST_PROXY: "${item}" is neither an address nor a CIDR network (use false, a number of proxies, or addresses and CIDRs separated by commas)`
      )
    networks.push(network)
  }
  return networks.length === 0
    ? Result.fail("HERALD_TRUST_PROXY is empty")
    : Result.succeed({ kind: "networks", networks })
}

/**
 * The client's address: the connection's peer, unless trusted proxies are in front. Then it is the
 * right-most X-Forwarded-For entry that is not one of them (entries left of it are the client's to
 * write). With a number of hops N, the peer and the N-1 right-most entries are the proxies. An
 * entry that is not an address stops the walk at the peer.
 */
export const clientAddress = (
  peer: string | undefined,
  forwardedFor: string | undefined,
  trust: ProxyTrust
): NetAddress.IpAddress | undefined => {
  const peerAddress = parseAddress(peer)
  if (trust.kind === "none" || peerAddress === undefined || forwardedFor === undefined) return peerAddress
  const entries = forwardedFor
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "")
  if (entries.length === 0) return peerAddress
  if (trust.kind === "hops") {
    if (trust.hops === 0) return peerAddress
    return parseAddress(entries[Math.max(0, entries.length - trust.hops)]) ?? peerAddress
  }
  const trusted = (address: NetAddress.IpAddress) =>
    trust.networks.some((network) => IpNetwork.contains(network, address))
  if (!trusted(peerAddress)) return peerAddress
  for (let i = entries.length - 1; i >= 0; i--) {
    const address = parseAddress(entries[i])
    if (address === undefined) return peerAddress
    if (i > 0 && trusted(address)) continue
    return address
  }
  return peerAddress
}

/** A rate-limit bucket: an IPv4 address as it is, an IPv6 address by its network (one host or household holds a whole /64). */
export const addressBucket = (address: NetAddress.IpAddress, ipv6Prefix: number): string =>
  NetAddress.isIpv4Address(address)
    ? NetAddress.formatIp(address)
    : IpNetwork.format(IpNetwork.fromAddressUnsafe(address, ipv6Prefix))

/**
 * The one way REST and MCP tell clients apart (the sign-up rate limit's bucket), built once from
 * the settings; fails at start-up on a HERALD_TRUST_PROXY it cannot read.
 */
export const clientBucket = (
  settings: HttpSettingsShape
): ((request: HttpServerRequest.HttpServerRequest) => string) => {
  const trust = parseProxyTrust(settings.trustProxy)
  if (Result.isFailure(trust)) throw new Error(trust.failure)
  const prefix = settings.ipv6Prefix
  if (!Number.isInteger(prefix) || prefix < 1 || prefix > 128)
    throw new Error(`HERALD_IPV6_PREFIX must be 1 to 128, not ${prefix}`)
  return (request) => {
    const forwarded = request.headers["x-forwarded-for"]
    const address = clientAddress(Option.getOrUndefined(request.remoteAddress), forwarded, trust.success)
    return address === undefined ? "unknown" : addressBucket(address, prefix)
  }
}
