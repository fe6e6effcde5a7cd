import { afterAll, describe, expect, it } from "vitest"
import { continueConnectLink } from "../support/connectLink.ts"
import { startEmbedded } from "../support/embeddedProcess.ts"

/*
 * `npm start` under process time zones other than UTC and under UTC: the same requests give the same
 * instants, and the posts go out at them. Herald reads no process zone: every zone is named (Intl).
 */

type Host = Awaited<ReturnType<typeof startEmbedded>>
const hosts: Array<Host> = []
afterAll(async () => {
  for (const host of hosts) await host.close()
})

/** The wall clock of an instant in a zone, YYYY-MM-DDTHH:MM:SS, from Intl (the test's own reference). */
const wallClock = (at: number, timeZone: string) =>
  new Intl.DateTimeFormat("sv-SE", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23"
  })
    .format(at)
    .replace(" ", "T")

describe("npm start with TZ set", () => {
  it("TZ=Pacific/Chatham and TZ=UTC: the same local, offset and queued times, published at those instants", async () => {
    const zones = ["Pacific/Chatham", "UTC"]
    const started = await Promise.all(zones.map((TZ) => startEmbedded({ TZ })))
    hosts.push(...started)
    const second = Math.ceil(Date.now() / 1000) * 1000
    const localAt = second + 30_000
    const offsetAt = second + 35_000
    // The same inputs for every process: a New York wall time, and an instant written at Kathmandu's +05:45.
    const local = { local: wallClock(localAt, "America/New_York"), timeZone: "America/New_York" }
    const kathmandu = `${wallClock(offsetAt + (5 * 60 + 45) * 60_000, "UTC")}+05:45`

    const results = await Promise.all(
      started.map(async (host) => {
        // The sandbox connects as soon as its link is continued.
        const link = (await (await fetch(`${host.api}/connect/sandbox`, { headers: host.auth })).json()) as {
          url: string
        }
        const { next, cookie } = await continueConnectLink(link.url)
        const opened = await fetch(next, { headers: { accept: "application/json", cookie } })
        const account = ((await opened.json()) as { account: { id: string } }).account
        const json = { ...host.auth, "content-type": "application/json" }
        const put = await fetch(`${host.api}/schedules`, {
          method: "PUT",
          headers: json,
          body: JSON.stringify({
            schedules: [
              { accountIds: [account!.id], timeZone: "Europe/Berlin", slots: [{ day: "wed", time: "10:00" }] }
            ]
          })
        })
        expect(put.status, await put.clone().text()).toBe(200)
        const schedules = (await put.json()) as { schedules: Array<{ nextSlots: Array<{ at: string }> }> }
        const a = await host.post({ accountIds: [account!.id], content: "local", scheduledFor: local })
        const b = await host.post({ accountIds: [account!.id], content: "offset", scheduledFor: kathmandu })
        const c = await host.post({ accountIds: [account!.id], content: "queued", queue: true })
        for (const reply of [a, b, c]) expect(reply.status, JSON.stringify(reply.body)).toBe(201)
        const publishedA = await host.until(a.body.post.id, (p) => p.status === "published")
        const publishedB = await host.until(b.body.post.id, (p) => p.status === "published")
        return {
          nextSlots: schedules.schedules[0]!.nextSlots.map((s) => s.at),
          a: { scheduledFor: a.body.post.scheduledFor, planned: a.body.planned, publishedAt: publishedA.publishedAt },
          b: { scheduledFor: b.body.post.scheduledFor, publishedAt: publishedB.publishedAt },
          c: { scheduledFor: c.body.post.scheduledFor, planned: c.body.planned }
        }
      })
    )
    const [first] = results as [(typeof results)[0]]
    expect(first.a.scheduledFor).toBe(new Date(localAt).toISOString())
    expect(first.b.scheduledFor).toBe(new Date(offsetAt).toISOString())
    expect(first.a.planned).toMatchObject({ local: local.local, timeZone: "America/New_York" })
    // A Wednesday at 10:00 in Berlin, by the test's own Intl.
    expect(wallClock(Date.parse(first.c.scheduledFor), "Europe/Berlin").slice(11)).toBe("10:00:00")
    expect(new Date(Date.parse(first.c.scheduledFor) + 2 * 3600_000).getUTCDay()).toBe(3)
    for (const r of results) {
      expect(r.a.scheduledFor).toBe(first.a.scheduledFor)
      expect(r.b.scheduledFor).toBe(first.b.scheduledFor)
      expect(r.c.scheduledFor).toBe(first.c.scheduledFor)
      expect(r.nextSlots).toEqual(first.nextSlots)
      // Out at their instants: never before, and not an hour late (the bug this guards against).
      for (const p of [r.a, r.b]) {
        expect(Date.parse(p.publishedAt)).toBeGreaterThanOrEqual(Date.parse(p.scheduledFor))
        expect(Date.parse(p.publishedAt) - Date.parse(p.scheduledFor)).toBeLessThan(30 * 60_000)
      }
    }
  }, 240_000)
})
