import { Result } from "effect"
import { parseCsv } from "./csv.ts"
import { type HeraldError, invalidFields } from "./errors.ts"

// POST /posts/batch in CSV: one post a row, under a header naming the columns. Each row becomes the
// object a JSON batch would hold, so both are decoded and checked by the same create-post rules.

export const MAX_BATCH_ROWS = 1000

/** The columns a CSV batch may have; list cells take ids separated by spaces, commas or semicolons. */
export const csvColumns = [
  "accountIds",
  "content",
  "mediaIds",
  "scheduledFor",
  "local",
  "timeZone",
  "queue",
  "firstComment",
  "firstReply",
  "requireApproval"
] as const
type CsvColumn = (typeof csvColumns)[number]

const lists = new Set<CsvColumn>(["accountIds", "mediaIds"])
const flags = new Set<CsvColumn>(["queue", "requireApproval"])

const listOf = (cell: string) => cell.split(/[\s,;]+/).filter((s) => s !== "")
/** true/false (any case) as booleans; anything else is kept, for the row's decoder to refuse by name. */
const flagOf = (cell: string): boolean | string =>
  /^true$/i.test(cell.trim()) ? true : /^false$/i.test(cell.trim()) ? false : cell

/**
 * The rows of a CSV batch as create-post objects. An empty cell is a field left out; `local` (with
 * `timeZone`) is scheduledFor's local form; a row with both scheduledFor and local keeps `local` as an
 * unknown field, which its decoding refuses.
 */
export const rowsOfCsv = (text: string): Result.Result<Array<Record<string, unknown>>, HeraldError> => {
  const parsed = parseCsv(text)
  if (Result.isFailure(parsed)) return Result.fail(parsed.failure)
  const [header, ...records] = parsed.success
  if (header === undefined) return Result.fail(invalidFields(["body"], "The CSV has no header row."))
  const columns = header.map((h) => h.trim())
  const unknown = columns.filter((c) => !(csvColumns as ReadonlyArray<string>).includes(c))
  if (unknown.length > 0)
    return Result.fail(
      invalidFields(
        unknown.slice(0, 10),
        `Unknown CSV columns: ${unknown.slice(0, 10).join(", ")}. Columns: ${csvColumns.join(", ")}.`
      )
    )
  if (new Set(columns).size !== columns.length)
    return Result.fail(invalidFields(["body"], "A CSV column appears twice."))
  if (!columns.includes("accountIds"))
    return Result.fail(invalidFields(["accountIds"], "The CSV needs an accountIds column."))
  if (records.length === 0) return Result.fail(invalidFields(["body"], "The CSV has no rows under its header."))
  if (records.length > MAX_BATCH_ROWS)
    return Result.fail(
      invalidFields(["body"], `A batch holds at most ${MAX_BATCH_ROWS} rows; this one has ${records.length}.`)
    )
  return Result.succeed(
    records.map((record) => {
      const row: Record<string, unknown> = {}
      const cell = (name: CsvColumn) => {
        const index = columns.indexOf(name)
        return index === -1 ? "" : (record[index] ?? "")
      }
      for (const name of csvColumns) {
        const value = cell(name)
        if (value === "" || name === "local" || name === "timeZone") continue
        row[name] = lists.has(name) ? listOf(value) : flags.has(name) ? flagOf(value) : value
      }
      const local = cell("local")
      const zone = cell("timeZone")
      if (local !== "") {
        const form = { local, ...(zone !== "" ? { timeZone: zone } : {}) }
        if (row.scheduledFor === undefined) row.scheduledFor = form
        else row.local = local
      } else if (zone !== "") row.timeZone = zone
      if (record.length > columns.length) row[`column${columns.length + 1}`] = record[columns.length]
      return row
    })
  )
}
