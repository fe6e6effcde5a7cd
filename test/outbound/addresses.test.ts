import { describe, expect, it } from "vitest"
import { classify, embeddedIpv4 } from "../../adapters/outbound/addresses.ts"
import { guardedLookup, judgeLiteral } from "../../adapters/outbound/guard.ts"

describe("the one address guard's list", () => {
  it("IPv4 inside IPv6 is judged by its IPv4, in every form that carries one", () => {
    const forms: ReadonlyArray<readonly [string, string, string]> = [
      // form, address, the IPv4 it carries
      ["IPv4-compatible", "::10.0.0.1", "10.0.0.1"],
      ["IPv4-compatible, hex", "::a00:1", "10.0.0.1"],
      ["IPv4-mapped", "::ffff:127.0.0.1", "127.0.0.1"],
      ["IPv4-mapped, hex", "::ffff:a9fe:a9fe", "169.254.169.254"],
      ["IPv4-translated", "::ffff:0:192.168.1.1", "192.168.1.1"],
      ["IPv4-translated, hex", "::ffff:0:c0a8:101", "192.168.1.1"],
      ["NAT64", "64:ff9b::10.1.2.3", "10.1.2.3"],
      ["NAT64, hex", "64:ff9b::a01:203", "10.1.2.3"],
      ["6to4", "2002:a9fe:a9fe::1", "169.254.169.254"],
      ["6to4, long form", "2002:0a00:0001:0000:0000:0000:0000:0001", "10.0.0.1"]
    ]
    for (const [form, address, v4] of forms) {
      expect(embeddedIpv4(address), form).toEqual([v4])
      expect(classify(address), form).toBe(classify(v4))
      expect(classify(address), form).not.toBe("public")
    }
    // Teredo carries two: its server (bits 32-63) and its client (the last 32 bits, inverted).
    expect(embeddedIpv4("2001:0:4136:e378:8000:63bf:f5ff:fffe")).toEqual(["65.54.227.120", "10.0.0.1"])
    expect(classify("2001:0:4136:e378:8000:63bf:f5ff:fffe")).toBe("private")
    expect(classify("2001:0:a00:1::f7f7:f7f7")).toBe("private")
    expect(classify("2001:0:4136:e378::f7f7:f7f7")).toBe("public")
    // The same forms around a public IPv4 are public: the IPv4 decides.
    for (const address of ["::ffff:8.8.8.8", "::ffff:0:8.8.8.8", "64:ff9b::8.8.8.8", "2002:808:808::1", "::8.8.8.8"])
      expect(classify(address), address).toBe("public")
    // Loopback through IPv6 is loopback, whatever the form.
    for (const address of [
      "::1",
      "0:0:0:0:0:0:0:1",
      "[::1]",
      "::ffff:127.0.0.1",
      "::ffff:0:127.0.0.1",
      "2002:7f00:1::"
    ])
      expect(classify(address), address).toBe("loopback")
  })

  it("private, reserved and unparsable addresses are private; the public internet is public", () => {
    for (const address of [
      "0.0.0.0",
      "10.255.0.1",
      "100.64.0.1",
      "169.254.169.254",
      "172.16.0.1",
      "192.0.0.8",
      "192.0.2.1",
      "192.168.0.1",
      "198.18.0.1",
      "224.0.0.1",
      "255.255.255.255",
      "::",
      "::5",
      "64:ff9b:1::1",
      "100::1",
      "2001:db8::1",
      "2001:10::1",
      "fc00::1",
      "fd12::1",
      "fe80::1%eth0",
      "fec0::1",
      "ff02::1",
      "localhost",
      "not an address"
    ])
      expect(classify(address), address).toBe("private")
    for (const address of ["93.184.216.34", "8.8.8.8", "172.32.0.1", "2606:4700::1111", "2a00:1450:4001::200e"])
      expect(classify(address), address).toBe("public")
  })

  it("a literal host is judged before any socket; loopback passes only when allowed, private never", () => {
    expect(judgeLiteral("[::ffff:7f00:1]", false)?.kind).toBe("loopback")
    expect(judgeLiteral("[::ffff:7f00:1]", true)).toBeNull()
    expect(judgeLiteral("[64:ff9b::a9fe:a9fe]", true)?.kind).toBe("private")
    expect(judgeLiteral("example.org", false)).toBeNull()
  })

  it("the connect-time lookup refuses a name with any inside address, and hands the socket what it judged", async () => {
    const look = (allowLoopback: boolean) =>
      new Promise<{ error: unknown; addresses: unknown }>((resolve) =>
        guardedLookup(allowLoopback)("localhost", { all: true }, (error, addresses) => resolve({ error, addresses }))
      )
    const refused = await look(false)
    expect((refused.error as { kind?: string }).kind).toBe("loopback")
    const allowed = await look(true)
    expect(allowed.error).toBeNull()
    for (const a of allowed.addresses as Array<{ address: string }>) expect(classify(a.address)).toBe("loopback")
  })
})
