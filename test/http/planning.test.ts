import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { claim, connectSandbox, uniqueEmail } from "../support/flows.ts"
import { call, type HttpHost, startHttpHost } from "../support/httpHost.ts"

// Schedules, queues and batches over REST: every answer checked against the served OpenAPI document.

let host: HttpHost
beforeAll(async () => {
  host = await startHttpHost()
})
afterAll(() => host.close())

/** A claimed workspace in a zone, its owner's session, a key that posts without approval, the asks-first key and accounts. */
const setUp = async (accounts = 1, timeZone = "Europe/Berlin") => {
  const email = uniqueEmail()
  const signed = await call(host, "POST", "/signup", { body: { email, agentName: "Planner", timeZone } })
  expect(signed.status).toBe(201)
  const asksFirst = signed.body.apiKey as string
  const session = await claim(host, email)
  const made = await call(host, "POST", "/keys", {
    cookie: session.cookie,
    headers: { "x-csrf-token": session.csrf },
    body: { name: "Scheduler bot", requireApproval: false }
  })
  expect(made.status).toBe(201)
  const ids: Array<string> = []
  for (let i = 0; i < accounts; i++) ids.push(await connectSandbox(host, asksFirst))
  return { key: made.body.apiKey as string, asksFirst, accountIds: ids, session }
}

describe("schedules and queues over REST", () => {
  it("sign-up's zone is the workspace's; PUT lays slots in it; queue: true answers the slot in UTC and local time", async () => {
    const { key, asksFirst, accountIds } = await setUp(2, "Asia/Kolkata")
    const [a, b] = accountIds as [string, string]
    const empty = await call(host, "GET", "/schedules", { key })
    expect(empty.body).toMatchObject({ timeZone: "Asia/Kolkata", schedules: [] })
    const refused = await call(host, "PUT", "/schedules", {
      key: asksFirst,
      body: { schedules: [{ accountIds: [a], slots: [{ day: "mon", time: "09:00" }] }] }
    })
    expect(refused.body.error.code).toBe("approval_requires_human")
    const badTime = await call(host, "PUT", "/schedules", {
      key,
      body: { schedules: [{ accountIds: [a], slots: [{ day: "mon", time: "9am" }] }] }
    })
    expect(badTime.status).toBe(400)
    const twice = await call(host, "PUT", "/schedules", {
      key,
      body: {
        schedules: [
          { accountIds: [a], slots: [{ day: "mon", time: "09:00" }] },
          { accountIds: [a], slots: [{ day: "tue", time: "09:00" }] }
        ]
      }
    })
    expect(twice.body.error).toMatchObject({ code: "validation_failed", details: { fields: ["schedules.accountIds"] } })

    const days = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    const put = await call(host, "PUT", "/schedules", {
      key,
      body: {
        schedules: [{ name: "Daily", accountIds: [a, b], slots: days.map((day) => ({ day, time: "09:30" })) }],
        accountTimeZones: { [b]: "America/New_York" }
      }
    })
    expect(put.status).toBe(200)
    const schedule = put.body.schedules[0]
    expect(schedule).toMatchObject({ name: "Daily", timeZone: "Asia/Kolkata", paused: false })
    expect(schedule.nextSlots).toHaveLength(5)
    expect(
      schedule.nextSlots.every(
        (s: { local: string; utcOffset: string }) => s.local.endsWith("09:30:00") && s.utcOffset === "+05:30"
      )
    ).toBe(true)
    expect(put.body.accounts.find((x: { accountId: string }) => x.accountId === b)).toMatchObject({
      timeZone: "America/New_York",
      effectiveTimeZone: "America/New_York",
      scheduleId: schedule.id
    })

    const first = await call(host, "POST", "/posts", { key, body: { accountIds: [a, b], content: "one", queue: true } })
    const second = await call(host, "POST", "/posts", {
      key: asksFirst,
      body: { accountIds: [a], content: "two", queue: true }
    })
    expect(first.status).toBe(201)
    expect(first.body.planned).toMatchObject({ timeZone: "Asia/Kolkata", utcOffset: "+05:30", scheduleId: schedule.id })
    expect(first.body.planned.scheduledFor).toBe(first.body.post.scheduledFor)
    expect(first.body.planned.scheduledFor).toBe(schedule.nextSlots[0].at)
    expect(second.body.post.status).toBe("needs_approval")
    expect(second.body.post.scheduledFor).toBe(schedule.nextSlots[1].at)

    const dry = await call(host, "POST", "/posts", {
      key,
      body: { accountIds: [b], content: "dry", queue: true, dryRun: true }
    })
    expect(dry.body.planned.scheduledFor).toBe(schedule.nextSlots[1].at) // b is free where a is taken
    const queue = await call(host, "GET", `/schedules/${schedule.id}/queue`, { key })
    expect(queue.body.posts.map((p: { postId: string }) => p.postId)).toEqual([first.body.post.id, second.body.post.id])
    expect(queue.body.posts[0]).toMatchObject({ accountIds: [a, b], local: expect.stringMatching(/T09:30:00$/) })

    const reordered = await call(host, "POST", `/schedules/${schedule.id}/queue/reorder`, {
      key: asksFirst,
      body: { postIds: [second.body.post.id, first.body.post.id] }
    })
    expect(reordered.body.error.code).toBe("approval_requires_human")
    const notOwn = await call(host, "POST", `/schedules/${schedule.id}/queue/reorder`, {
      key,
      body: { postIds: [second.body.post.id, first.body.post.id] }
    })
    expect(notOwn.body.error.code).toBe("reschedule_not_own_post")

    const paused = await call(host, "POST", `/schedules/${schedule.id}/pause`, { key })
    expect(paused.body.schedule.paused).toBe(true)
    const resumed = await call(host, "POST", `/schedules/${schedule.id}/resume`, { key })
    expect(resumed.body.schedule.paused).toBe(false)
    const missing = await call(host, "POST", "/schedules/sch_missing/pause", { key })
    expect(missing.body.error.code).toBe("schedule_not_found")
  })

  it("scheduledFor takes a local time with its zone; a skipped one is 400 local_time_skipped with a suggestion", async () => {
    const { key, accountIds } = await setUp(1)
    const year = new Date().getUTCFullYear() + 1
    // The last Sunday of March: Europe/Berlin skips 02:00-03:00.
    const lastSunday = 31 - new Date(Date.UTC(year, 2, 31)).getUTCDay()
    const day = `${year}-03-${lastSunday}`
    const skipped = await call(host, "POST", "/posts", {
      key,
      body: { accountIds, content: "gap", scheduledFor: { local: `${day}T02:30`, timeZone: "Europe/Berlin" } }
    })
    expect(skipped.status).toBe(400)
    expect(skipped.body.error).toMatchObject({
      code: "local_time_skipped",
      details: { suggestion: { local: `${day}T03:30:00`, utcOffset: "+02:00", scheduledFor: `${day}T01:30:00.000Z` } }
    })
    const local = await call(host, "POST", "/posts", {
      key,
      body: { accountIds, content: "local", scheduledFor: { local: `${day}T09:00` } }
    })
    expect(local.status).toBe(201)
    expect(local.body.post.scheduledFor).toBe(`${day}T07:00:00.000Z`)
    expect(local.body.planned).toMatchObject({ local: `${day}T09:00:00`, timeZone: "Europe/Berlin", scheduleId: null })
    const moved = await call(host, "POST", `/posts/${local.body.post.id}/reschedule`, {
      key,
      body: { scheduledFor: { local: `${day}T18:00`, timeZone: "America/New_York" } }
    })
    expect(moved.status).toBe(200)
    expect(moved.body.post.scheduledFor).toBe(`${day}T22:00:00.000Z`)
    const typo = await call(host, "POST", "/posts", {
      key,
      body: { accountIds, content: "typo", scheduledFor: { local: `${day}T09:00`, zone: "Europe/Berlin" } }
    })
    expect(typo.body.error.code).toBe("validation_failed")
  })
})

describe("POST /posts/batch", () => {
  it("JSON, row by row: each row's post or error, in order; one Idempotency-Key replays the stored rows", async () => {
    const { key, accountIds } = await setUp(1)
    const later = new Date(Date.now() + 86_400_000).toISOString()
    const body = {
      posts: [
        { accountIds, content: "first" },
        { accountIds, content: "second", scheduledFor: later },
        { accountIds, content: "typo", scheduledFor: later, sheduledFor: later },
        { accountIds: ["acc_nobody"], content: "nobody" },
        { accountIds, content: "dry", dryRun: true }
      ]
    }
    const made = await call(host, "POST", "/posts/batch", { key, body, headers: { "idempotency-key": "batch-1" } })
    expect(made.status).toBe(201)
    expect(made.body).toMatchObject({ created: 2, failed: 3, replayed: 0, atomic: false, dryRun: false })
    expect(made.body.results.map((r: { row: number; ok: boolean }) => [r.row, r.ok])).toEqual([
      [1, true],
      [2, true],
      [3, false],
      [4, false],
      [5, false]
    ])
    expect(made.body.results[2].error).toMatchObject({
      code: "validation_failed",
      details: { fields: ["sheduledFor"] }
    })
    expect(made.body.results[3].error.code).toBe("account_not_found")
    expect(made.body.results[4].error.details.fields).toEqual(["dryRun"])
    expect(made.body.results[1].post.scheduledFor).toBe(later)

    const again = await call(host, "POST", "/posts/batch", { key, body, headers: { "idempotency-key": "batch-1" } })
    expect(again.status).toBe(200)
    expect(again.body).toMatchObject({ created: 0, replayed: 2, failed: 3 })
    expect(again.body.results[0].post.id).toBe(made.body.results[0].post.id)
    const reused = await call(host, "POST", "/posts/batch", {
      key,
      body: { posts: [{ accountIds, content: "other" }] },
      headers: { "idempotency-key": "batch-1" }
    })
    expect(reused.status).toBe(422)
    expect(reused.body.error.code).toBe("idempotency_key_reused")
  })

  it("atomic: one refused row refuses the batch, every row's error listed, nothing stored", async () => {
    const { key, accountIds } = await setUp(1)
    const before = await call(host, "GET", "/posts", { key })
    const refused = await call(host, "POST", "/posts/batch", {
      key,
      body: {
        atomic: true,
        posts: [
          { accountIds, content: "fine" },
          { accountIds, content: "past", scheduledFor: "2001-01-01T00:00:00Z" },
          { accountIds, content: "" },
          { accountIds, content: "fine too" }
        ]
      }
    })
    expect(refused.status).toBe(400)
    expect(refused.body.error.code).toBe("batch_rejected")
    expect(refused.body.error.details.rows.map((r: { row: number; code: string }) => [r.row, r.code])).toEqual([
      [2, "scheduled_in_past"],
      [3, "validation_failed"]
    ])
    const after = await call(host, "GET", "/posts", { key })
    expect(after.body.posts.length).toBe(before.body.posts.length)
  })

  it("CSV with the documented columns, queue rows in row order; a dry run counts every row toward the Free month", async () => {
    const { key, accountIds } = await setUp(1)
    const [a] = accountIds as [string]
    await call(host, "PUT", "/schedules", {
      key,
      body: {
        schedules: [
          {
            accountIds: [a],
            slots: [
              { day: "mon", time: "08:00" },
              { day: "thu", time: "08:00" }
            ]
          }
        ]
      }
    })
    const csv = [
      "accountIds,content,queue,local,timeZone,firstComment",
      `${a},"Queued, with a comma",true,,,`,
      `${a},"Second ""quoted"" line",true,,,https://example.org`,
      `${a},At nine in Tokyo,,2099-01-01T09:00,Asia/Tokyo,`,
      `${a},Local in the workspace zone,false,${new Date().getUTCFullYear() + 1}-06-01T09:00,,`,
      `${a},Bad flag,perhaps,,,`
    ].join("\r\n")
    const sent = await fetch(`${host.base}/posts/batch`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "text/csv" },
      body: csv
    })
    const result = (await sent.json()) as { created: number; results: Array<Record<string, any>> }
    expect(sent.status).toBe(201)
    expect(result.results.map((r) => r.ok)).toEqual([true, true, false, true, false])
    const [q1, q2] = result.results as [Record<string, any>, Record<string, any>]
    expect(q1.post.content).toBe("Queued, with a comma")
    expect(q2.post.content).toBe('Second "quoted" line')
    expect(q2.post.firstComment).toBe("https://example.org")
    expect(Date.parse(q1.planned.scheduledFor)).toBeLessThan(Date.parse(q2.planned.scheduledFor))
    expect(q1.planned.local.endsWith("T08:00:00")).toBe(true)
    expect(result.results[2]!.error.code).toBe("scheduled_too_far")
    expect(result.results[3]!.planned).toMatchObject({
      local: expect.stringMatching(/-06-01T09:00:00$/),
      timeZone: "Europe/Berlin"
    })
    expect(result.results[4]!.error).toMatchObject({ code: "validation_failed", details: { fields: ["queue"] } })

    const unknownColumn = await call(host, "POST", "/posts/batch", {
      key,
      raw: "accountIds,contnet\nacc_1,hi",
      headers: { "content-type": "text/csv" }
    })
    expect(unknownColumn.body.error).toMatchObject({ code: "validation_failed", details: { fields: ["contnet"] } })

    // 30 posts a month on Free: 3 used; a dry run of 30 rows passes 27 and refuses 3.
    const rows = Array.from({ length: 30 }, (_, i) => `${a},dry ${i}`)
    const dry = await call(host, "POST", "/posts/batch?dryRun=true", {
      key,
      raw: ["accountIds,content", ...rows].join("\n"),
      headers: { "content-type": "text/csv" }
    })
    expect(dry.status).toBe(200)
    expect(dry.body.results.filter((r: { ok: boolean }) => r.ok)).toHaveLength(27)
    expect(dry.body.results.slice(27).map((r: { error: { code: string } }) => r.error.code)).toEqual([
      "post_limit_reached",
      "post_limit_reached",
      "post_limit_reached"
    ])
    const real = await call(host, "POST", "/posts/batch", {
      key,
      raw: ["accountIds,content", ...rows].join("\n"),
      headers: { "content-type": "text/csv" }
    })
    expect(real.body).toMatchObject({ created: 27, failed: 3 })
    expect(real.body.results[29].error.code).toBe("post_limit_reached")
  })
})
