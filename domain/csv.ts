import { Result } from "effect"
import { type HeraldError, invalidFields } from "./errors.ts"

// RFC 4180 CSV: fields separated by commas, records by CRLF or LF, quoted fields may hold commas,
// line breaks and doubled quotes. A byte-order mark is skipped. Small enough to keep here.

/** The records of a CSV text; Left when a quote is never closed or a quoted field runs into text. */
export const parseCsv = (text: string): Result.Result<Array<Array<string>>, HeraldError> => {
  const records: Array<Array<string>> = []
  let record: Array<string> = []
  let field = ""
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0
  let line = 1
  const malformed = (why: string) => Result.fail(invalidFields(["body"], `CSV line ${line}: ${why}`))
  while (i <= text.length) {
    if (i === text.length) {
      if (field !== "" || record.length > 0) record.push(field)
      if (record.length > 0) records.push(record)
      break
    }
    const c = text[i]!
    if (c === '"' && field === "") {
      // A quoted field: up to the closing quote; "" is one quote.
      let j = i + 1
      let value = ""
      while (true) {
        const k = text.indexOf('"', j)
        if (k === -1) return malformed("a quoted field is never closed.")
        value += text.slice(j, k)
        for (let n = j; n < k; n++) if (text[n] === "\n") line++
        if (text[k + 1] === '"') {
          value += '"'
          j = k + 2
          continue
        }
        i = k + 1
        break
      }
      const next = text[i]
      if (next !== undefined && next !== "," && next !== "\r" && next !== "\n")
        return malformed("text follows a quoted field's closing quote.")
      field = value
      if (next === undefined) continue
      continue
    }
    if (c === ",") {
      record.push(field)
      field = ""
      i++
      continue
    }
    if (c === "\r" || c === "\n") {
      record.push(field)
      field = ""
      records.push(record)
      record = []
      i += c === "\r" && text[i + 1] === "\n" ? 2 : 1
      line++
      continue
    }
    const stop = text.slice(i).search(/[,\r\n]/)
    const end = stop === -1 ? text.length : i + stop
    const chunk = text.slice(i, end)
    if (chunk.includes('"')) return malformed("a quote inside an unquoted field; quote the whole field.")
    field += chunk
    i = end
  }
  // Blank lines are no rows.
  return Result.succeed(records.filter((r) => !(r.length === 1 && r[0] === "")))
}
