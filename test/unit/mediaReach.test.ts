import { describe, expect, it } from "vitest"
import { mediaFetchWarning, unreachableFromOutside } from "../../domain/mediaReach.ts"

describe("whether a network on the internet can fetch Herald's media URL", () => {
  it("loopback, private, link-local and shared addresses, and names that only resolve inside, cannot be reached", () => {
    for (const url of [
      "http://localhost:8080/files/a.png",
      "http://app.localhost/x",
      "http://127.0.0.1:8080/x",
      "http://0.0.0.0/x",
      "http://10.1.2.3/x",
      "http://172.16.0.9/x",
      "http://172.31.255.1/x",
      "http://192.168.1.20/x",
      "http://169.254.169.254/x",
      "http://100.64.0.1/x",
      "http://[::1]:8080/x",
      "http://[fd12:3456::1]/x",
      "http://[fe80::1]/x",
      "http://[::ffff:192.168.0.1]/x",
      "http://herald.test/x",
      "http://nas.local/x",
      "http://herald.internal/x",
      "http://herald/x"
    ])
      expect(unreachableFromOutside(url), url).not.toBeNull()
  })

  it("public names and addresses pass", () => {
    for (const url of [
      "https://herald.example.org/files/a.png",
      "https://bucket.s3.amazonaws.com/k?X-Amz-Expires=3600",
      "http://172.32.0.1/x",
      "http://8.8.8.8/x",
      "http://[2001:db8::1]/x"
    ])
      expect(unreachableFromOutside(url), url).toBeNull()
  })

  it("the dry run's warning names the Meta networks among the targets and the host; others and public URLs get none", () => {
    const warning = mediaFetchWarning(
      ["x", "instagram", "threads", "instagram"],
      "http://localhost:8080/files/media/a.png?expires=1&signature=s"
    )
    expect(warning).toContain(
      "Instagram, Threads download media from Herald by URL, but localhost:8080 is a name that only resolves"
    )
    expect(warning).toContain("HERALD_PUBLIC_URL")
    expect(mediaFetchWarning(["x", "bluesky"], "http://localhost:8080/files/a.png")).toBeNull()
    expect(mediaFetchWarning(["facebook"], "https://herald.example.org/files/a.png")).toBeNull()
  })
})
