import { execFileSync } from "node:child_process"
import { describe, expect, it } from "vitest"
import { Option } from "effect"
import {
  formatLocal,
  instantOfInput,
  instantOfSlot,
  type LocalDateTime,
  localView,
  parseLocal,
  resolveLocal
} from "../../domain/zonedTime.ts"
import { slotInstants } from "../../domain/schedule.ts"

// Property-style checks of Herald's local-time rule against the platform: every quarter hour of a whole
// year in five zones (two DST hemispheres, Lord Howe's half-hour shift, Kolkata's half-hour offset
// without DST, Chatham's +12:45). The reference is the platform's own, never Herald's arithmetic:
// Intl's wall clock of each instant (forwards), and Temporal's disambiguation (backwards) where Node has it.

const zones = ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "Pacific/Chatham"]
const QUARTER = 15 * 60 * 1000
const YEAR_START = Date.UTC(2027, 0, 1) - 14 * 3600 * 1000
const YEAR_END = Date.UTC(2028, 0, 1) + 14 * 3600 * 1000

/** The reference wall clock: a fresh Intl formatter, read as sv-SE's "YYYY-MM-DD HH:MM:SS". */
const referenceWallClock = (zone: string) => {
  const format = new Intl.DateTimeFormat("sv-SE", {
    timeZone: zone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23"
  })
  return (at: number) => format.format(at).replace(" ", "T")
}

const local = (text: string): LocalDateTime => Option.getOrThrow(parseLocal(text))

/** For each zone: every local quarter hour Intl shows in the year, with the instants that show it. */
const forward = new Map(
  zones.map((zone) => {
    const wall = referenceWallClock(zone)
    const shown = new Map<string, Array<number>>()
    for (let at = YEAR_START; at < YEAR_END; at += QUARTER) {
      const text = wall(at)
      const list = shown.get(text)
      if (list) list.push(at)
      else shown.set(text, [at])
    }
    return [zone, shown] as const
  })
)

/** Temporal's answers (disambiguation "compatible": a repeated time's first, a skipped one pushed forward by the gap), from a child Node that has it. */
const temporalReference = (queries: ReadonlyArray<[string, string]>): Array<number> | null => {
  const script = `
    const queries = JSON.parse(require("node:fs").readFileSync(0, "utf8"))
    const out = queries.map(([zone, local]) =>
      Temporal.PlainDateTime.from(local).toZonedDateTime(zone, { disambiguation: "compatible" }).epochMilliseconds)
    process.stdout.write(JSON.stringify(out))`
  try {
    const text = execFileSync(process.execPath, ["--harmony-temporal", "-e", script], {
      input: JSON.stringify(queries),
      maxBuffer: 64 * 1024 * 1024
    })
    return JSON.parse(text.toString()) as Array<number>
  } catch {
    return null
  }
}

describe("local times over a whole year, against the platform's Intl", () => {
  for (const zone of zones) {
    it(`${zone}: every local time Intl shows maps back to the instant(s) that show it, the first when repeated`, () => {
      const shown = forward.get(zone)!
      let repeated = 0
      const wrong: Array<string> = []
      for (const [text, instants] of shown) {
        const resolved = resolveLocal(local(text), zone)
        const expected =
          instants.length === 1
            ? { _tag: "Exact", at: instants[0] }
            : { _tag: "Repeated", earlier: instants[0], later: instants[1] }
        if (instants.length > 1) repeated++
        if (JSON.stringify(resolved) !== JSON.stringify(expected)) wrong.push(`${text}: ${JSON.stringify(resolved)}`)
        // Inputs and slots alike take a repeated time's first occurrence.
        const input = instantOfInput(local(text), zone)
        if (input._tag !== "At" || input.at !== instants[0]) wrong.push(`${text} as input: ${JSON.stringify(input)}`)
        if (instantOfSlot(local(text), zone) !== instants[0]) wrong.push(`${text} as slot`)
        // And the local view of that instant is the text itself.
        if (localView(instants[0]!, zone).local !== text) wrong.push(`${text} viewed`)
      }
      expect(wrong).toEqual([])
      expect(shown.size).toBeGreaterThan(365 * 96)
      const expectedRepeats: Record<string, number> = {
        "Europe/Berlin": 4,
        "America/New_York": 4,
        "Australia/Lord_Howe": 2,
        "Asia/Kolkata": 0,
        "Pacific/Chatham": 4
      }
      expect(repeated).toBe(expectedRepeats[zone])
    }, 120_000)

    it(`${zone}: local times Intl never shows are skipped: refused as inputs, pushed past the gap as slots`, () => {
      const shown = forward.get(zone)!
      const skipped: Array<{ text: string; naive: number }> = []
      // Every local quarter hour of 2027, as a calendar walk (no zone involved).
      for (let naive = Date.UTC(2027, 0, 1); naive < Date.UTC(2028, 0, 1); naive += QUARTER) {
        const text = new Date(naive).toISOString().slice(0, 19)
        if (!shown.has(text)) skipped.push({ text, naive })
      }
      for (const { text, naive } of skipped) {
        expect(resolveLocal(local(text), zone)._tag, text).toBe("Skipped")
        const input = instantOfInput(local(text), zone)
        expect(input._tag, text).toBe("Skipped")
        // A slot (and the suggestion) is the wall time moved forward by the gap's length, the skipped
        // quarter hours of that night counted from Intl's own answers.
        const gap = skipped.filter((s) => s.text.slice(0, 10) === text.slice(0, 10)).length * QUARTER
        const slot = instantOfSlot(local(text), zone)
        if (input._tag === "Skipped") expect(input.suggestion).toBe(slot)
        expect(localView(slot, zone).local, text).toBe(new Date(naive + gap).toISOString().slice(0, 19))
      }
      const expectedGaps: Record<string, number> = {
        "Europe/Berlin": 4,
        "America/New_York": 4,
        "Australia/Lord_Howe": 2,
        "Asia/Kolkata": 0,
        "Pacific/Chatham": 4
      }
      expect(skipped.length).toBe(expectedGaps[zone])
    })
  }

  it("resolves as Temporal does (disambiguation compatible): every quarter hour of each DST change's day, and 09:00 and 21:30 of every day", () => {
    const queries: Array<[string, string]> = []
    for (const zone of zones) {
      const shown = forward.get(zone)!
      // The days Intl shows a change on: a local time repeated, or one missing.
      const changeDays = new Set(
        [...shown].filter(([, instants]) => instants.length > 1).map(([text]) => text.slice(0, 10))
      )
      for (let naive = Date.UTC(2027, 0, 1); naive < Date.UTC(2028, 0, 1); naive += QUARTER) {
        const text = new Date(naive).toISOString().slice(0, 19)
        if (!shown.has(text)) changeDays.add(text.slice(0, 10))
      }
      for (let day = Date.UTC(2027, 0, 1); day < Date.UTC(2028, 0, 1); day += 24 * 3600 * 1000) {
        const date = new Date(day).toISOString().slice(0, 10)
        if (changeDays.has(date))
          for (let q = 0; q < 96; q++) queries.push([zone, new Date(day + q * QUARTER).toISOString().slice(0, 19)])
        else queries.push([zone, `${date}T09:00:00`], [zone, `${date}T21:30:00`])
      }
    }
    const reference = temporalReference(queries)
    if (reference === null) {
      console.warn("Temporal is not available to a child Node (--harmony-temporal): checked against Intl only")
      return
    }
    const mismatches = queries.filter(([zone, text], i) => instantOfSlot(local(text), zone) !== reference[i])
    expect(mismatches).toEqual([])
    // Four zones change twice a year (Kolkata never): 8 days of 96 quarter hours.
    expect(queries.length).toBe(5 * 365 * 2 + 8 * (96 - 2))
  }, 120_000)

  it("a weekly slot happens once a week across both DST changes: never twice, never skipped", () => {
    for (const zone of zones)
      for (const time of ["00:00", "01:30", "02:00", "02:30", "02:45", "03:00", "09:00", "23:45"]) {
        const instants = [
          ...slotInstants({ timeZone: zone, slots: [{ day: "sun", time }] }, Date.UTC(2027, 0, 1), Date.UTC(2028, 0, 1))
        ]
        // 2027 has 52 Sundays; each Sunday's slot exactly once, strictly increasing.
        expect(instants.length, `${zone} ${time}`).toBe(52)
        for (let i = 1; i < instants.length; i++) expect(instants[i]! > instants[i - 1]!).toBe(true)
        const days = instants.map((at) => localView(at, zone).local.slice(0, 10))
        expect(new Set(days).size, `${zone} ${time}`).toBe(52)
      }
  })

  it("formats and parses local times strictly", () => {
    expect(Option.isNone(parseLocal("2027-02-29T09:00"))).toBe(true)
    expect(Option.isNone(parseLocal("2027-03-28T09:00+02:00"))).toBe(true)
    expect(Option.isNone(parseLocal("2027-03-28T24:00"))).toBe(true)
    expect(formatLocal(local("2027-03-28T09:05"))).toBe("2027-03-28T09:05:00")
    expect(localView(Date.UTC(2027, 2, 28, 7), "Europe/Berlin")).toEqual({
      local: "2027-03-28T09:00:00",
      timeZone: "Europe/Berlin",
      utcOffset: "+02:00"
    })
    expect(localView(Date.UTC(2027, 0, 1), "Pacific/Chatham").utcOffset).toBe("+13:45")
    expect(localView(Date.UTC(2027, 0, 1), "Asia/Kolkata").utcOffset).toBe("+05:30")
  })
})
