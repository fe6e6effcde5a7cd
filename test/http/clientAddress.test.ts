import { ConfigProvider, Effect, Result } from "effect"
import { NetAddress } from "effect/net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { defaultLimits, loadConfig } from "../../application/config.ts"
import { addressBucket, clientAddress, parseProxyTrust, type ProxyTrust } from "../../hosts/http/clientAddress.ts"
import { uniqueEmail } from "../support/flows.ts"
import { type HttpHost, startHttpHost } from "../support/httpHost.ts"

const trust = (text: string): ProxyTrust => Result.getOrThrow(parseProxyTrust(text))
const client = (peer: string, forwarded: string | undefined, setting: string) => {
  const address = clientAddress(peer, forwarded, trust(setting))
  return address === undefined ? undefined : NetAddress.formatIp(address)
}

describe("the client address", () => {
  it("is the peer by default: X-Forwarded-For is ignored", () => {
    expect(client("203.0.113.9", "198.51.100.1", "false")).toBe("203.0.113.9")
    expect(client("::ffff:203.0.113.9", undefined, "false")).toBe("203.0.113.9")
  })

  it("with N trusted hops, is the N-th X-Forwarded-For entry from the right", () => {
    expect(client("10.0.0.2", "6.6.6.6, 198.51.100.7", "1")).toBe("198.51.100.7")
    expect(client("10.0.0.2", "6.6.6.6, 198.51.100.7, 10.0.0.1", "2")).toBe("198.51.100.7")
    expect(client("10.0.0.2", "198.51.100.7", "3")).toBe("198.51.100.7")
    expect(client("10.0.0.2", undefined, "1")).toBe("10.0.0.2")
    expect(client("10.0.0.2", "not-an-address", "1")).toBe("10.0.0.2")
    expect(client("10.0.0.2", "[2001:db8::7]:4711", "1")).toBe("2001:db8::7")
  })

  it("with trusted networks, is the right-most entry outside them, and only when the peer is one of them", () => {
    const proxies = "10.0.0.0/8, fd00::/8, 192.0.2.1"
    expect(client("10.1.2.3", "6.6.6.6, 198.51.100.7, 10.9.9.9", proxies)).toBe("198.51.100.7")
    expect(client("192.0.2.1", "198.51.100.7", proxies)).toBe("198.51.100.7")
    expect(client("203.0.113.5", "198.51.100.7", proxies)).toBe("203.0.113.5")
    expect(client("fd00::1", "10.0.0.1, 10.0.0.2", proxies)).toBe("10.0.0.1")
  })

  it("refuses a setting it cannot read", () => {
    for (const bad of ["yes", "10.0.0.1/33", "10.0.0.1/8", "example.org", ","])
      expect(Result.isFailure(parseProxyTrust(bad)), bad).toBe(true)
  })

  it("is bucketed by its /64 when it is IPv6, alone when it is IPv4", () => {
    const ip = (text: string) => NetAddress.ipFromStringUnsafe(text)
    expect(addressBucket(ip("2001:db8:1:2:aaaa::1"), 64)).toBe(addressBucket(ip("2001:db8:1:2:ffff::9"), 64))
    expect(addressBucket(ip("2001:db8:1:2::1"), 64)).toBe("2001:db8:1:2::/64")
    expect(addressBucket(ip("2001:db8:1:3::1"), 64)).not.toBe(addressBucket(ip("2001:db8:1:2::1"), 64))
    expect(addressBucket(ip("2001:db8:1:3::1"), 48)).toBe("2001:db8:1::/48")
    expect(addressBucket(ip("203.0.113.9"), 64)).toBe("203.0.113.9")
  })

  it("settings come from HERALD_TRUST_PROXY and HERALD_IPV6_PREFIX, off and 64 by default", async () => {
    const read = (env: Record<string, string>) =>
      Effect.runPromise(
        Effect.provideService(loadConfig, ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env }))
      ).then((c) => c.http)
    expect(await read({})).toMatchObject({ trustProxy: "false", ipv6Prefix: 64 })
    expect(await read({ HERALD_TRUST_PROXY: "10.0.0.0/8", HERALD_IPV6_PREFIX: "56" })).toMatchObject({
      trustProxy: "10.0.0.0/8",
      ipv6Prefix: 56
    })
  })
})

describe("the sign-up rate limit counts clients, on REST and MCP alike", () => {
  let behindProxy: HttpHost
  let direct: HttpHost
  const limits = { ...defaultLimits, signupPerIpPerHour: 2, signupPerEmailPerDay: 100, signupsPerDay: 10_000 }
  beforeAll(async () => {
    behindProxy = await startHttpHost({ limits }, {}, { trustProxy: "127.0.0.1" })
    direct = await startHttpHost({ limits })
  })
  afterAll(async () => {
    await behindProxy?.close()
    await direct?.close()
  })

  const rest = (host: HttpHost, forwardedFor: string) =>
    fetch(`${host.base}/signup`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": forwardedFor },
      body: JSON.stringify({ email: uniqueEmail() })
    }).then((r) => r.status)
  const mcp = (host: HttpHost, forwardedFor: string) =>
    fetch(`${host.origin}/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "x-forwarded-for": forwardedFor
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "sign_up", arguments: { email: uniqueEmail() } }
      })
    }).then(
      async (r) =>
        ((await r.json()) as { result: { isError?: boolean; structuredContent?: { error?: { code: string } } } }).result
    )

  it("behind a trusted proxy: one bucket per forwarded client, an IPv6 /64 being one client", async () => {
    expect(await rest(behindProxy, "198.51.100.1")).toBe(201)
    expect(await rest(behindProxy, "198.51.100.2")).toBe(201)
    expect(await rest(behindProxy, "198.51.100.1")).toBe(201)
    expect(await rest(behindProxy, "198.51.100.1")).toBe(429)
    expect(await rest(behindProxy, "2001:db8:5:6::1")).toBe(201)
    const shared = await mcp(behindProxy, "2001:db8:5:6:ffff::2")
    expect(shared.isError).toBeFalsy()
    const third = await mcp(behindProxy, "2001:db8:5:6::3")
    expect(third.isError).toBe(true)
    expect(JSON.stringify(third)).toContain("rate_limited")
    expect(await rest(behindProxy, "2001:db8:5:7::1")).toBe(201)
  })

  it("without trust, X-Forwarded-For changes nothing: every request is the peer's", async () => {
    expect(await rest(direct, "198.51.100.1")).toBe(201)
    expect(await rest(direct, "198.51.100.2")).toBe(201)
    expect(await rest(direct, "198.51.100.3")).toBe(429)
  })
})
