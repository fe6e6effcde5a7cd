import { describe, expect, it } from "vitest"
import { Result } from "effect"
import { rowsOfCsv } from "../../domain/batch.ts"
import { parseCsv } from "../../domain/csv.ts"
import { firstFreeSlot, QueueBook, slotInstants } from "../../domain/schedule.ts"

const HOUR = 3_600_000
const T0 = Date.UTC(2027, 4, 3) // Monday 00:00 UTC
const hourly = {
  timeZone: "UTC",
  slots: ["mon", "tue", "wed"].flatMap((day) =>
    Array.from({ length: 24 }, (_, h) => ({ day: day as "mon", time: `${String(h).padStart(2, "0")}:00` }))
  )
}

describe("the queue book and networks' 24-hour caps", () => {
  it("a capped account takes at most `cap` slots in any 24 hours; another account is not held back", () => {
    const book = new QueueBook()
    const capped = [{ accountId: "ig", dailyCap: 3 }]
    const taken: Array<number> = []
    for (let i = 0; i < 6; i++) {
      const at = firstFreeSlot(hourly, capped, book, T0, T0 + 72 * HOUR)!
      book.add("ig", at)
      taken.push((at - T0) / HOUR)
    }
    // 0, 1, 2, then nothing until 24 h after the first: 24, 25, 26.
    expect(taken).toEqual([0, 1, 2, 24, 25, 26])
    const free = firstFreeSlot(hourly, [{ accountId: "x", dailyCap: null }], book, T0, T0 + 72 * HOUR)
    expect(free).toBe(T0)
    // A post to both waits for a slot both can take.
    expect(firstFreeSlot(hourly, [...capped, { accountId: "x", dailyCap: null }], book, T0, T0 + 72 * HOUR)).toBe(
      T0 + 48 * HOUR
    )
  })

  it("a slot placed between others counts every window that holds it", () => {
    const book = new QueueBook([
      { accountId: "th", slotAt: T0 + 1 * HOUR },
      { accountId: "th", slotAt: T0 + 20 * HOUR }
    ])
    // A window from 01:00 to 01:00 next day would hold 01:00, 20:00 and 23:00: over a cap of 2.
    expect(book.fitsCap("th", T0 + 23 * HOUR, 2)).toBe(false)
    expect(book.fitsCap("th", T0 + 26 * HOUR, 2)).toBe(true)
    expect(book.fitsCap("th", T0 + 23 * HOUR, 3)).toBe(true)
  })

  it("no slot left before the horizon is null; a schedule without slots yields none", () => {
    const book = new QueueBook(Array.from({ length: 72 }, (_, h) => ({ accountId: "a", slotAt: T0 + h * HOUR })))
    expect(firstFreeSlot(hourly, [{ accountId: "a", dailyCap: null }], book, T0, T0 + 72 * HOUR)).toBeNull()
    expect([...slotInstants({ timeZone: "UTC", slots: [] }, T0, T0 + 1000 * HOUR)]).toEqual([])
  })
})

describe("CSV batches", () => {
  it("parses RFC 4180: quotes, doubled quotes, commas and line breaks in fields, CRLF, a BOM, blank lines", () => {
    const parsed = parseCsv('\uFEFFa,b,c\r\n"x, y","say ""hi""","two\nlines"\n\nlast,,\n')
    expect(Result.getOrThrow(parsed)).toEqual([
      ["a", "b", "c"],
      ["x, y", 'say "hi"', "two\nlines"],
      ["last", "", ""]
    ])
    expect(Result.isFailure(parseCsv('a\n"never closed'))).toBe(true)
    expect(Result.isFailure(parseCsv('a\n"x"y'))).toBe(true)
    expect(Result.isFailure(parseCsv('a\nsay "hi"'))).toBe(true)
  })

  it("rows become create-post objects: lists split, flags read, local times, both times kept for the row's decoder to refuse", () => {
    const rows = Result.getOrThrow(
      rowsOfCsv(
        [
          "content,accountIds,mediaIds,queue,local,timeZone,scheduledFor",
          "hi,acc_1 acc_2;acc_3,,TRUE,,,",
          "x,acc_1,med_1,,2027-03-28T09:00,Europe/Berlin,",
          "y,acc_1,,maybe,2027-03-28T09:00,,2027-03-28T09:00:00Z"
        ].join("\n")
      )
    )
    expect(rows).toEqual([
      { content: "hi", accountIds: ["acc_1", "acc_2", "acc_3"], queue: true },
      {
        content: "x",
        accountIds: ["acc_1"],
        mediaIds: ["med_1"],
        scheduledFor: { local: "2027-03-28T09:00", timeZone: "Europe/Berlin" }
      },
      {
        content: "y",
        accountIds: ["acc_1"],
        queue: "maybe",
        scheduledFor: "2027-03-28T09:00:00Z",
        local: "2027-03-28T09:00"
      }
    ])
    expect(Result.isFailure(rowsOfCsv("content\nhi"))).toBe(true) // no accountIds column
    expect(Result.isFailure(rowsOfCsv(`accountIds\n${"acc_1\n".repeat(1001)}`))).toBe(true)
  })
})
