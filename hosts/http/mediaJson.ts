import { Effect, Stream } from "effect"
import { fail, type HeraldError, invalidFields } from "../../domain/errors.ts"

/**
 * The JSON upload form, `{filename, dataBase64, contentType}`, read as it arrives: `dataBase64` is
 * decoded incrementally into the body stream, the short fields are kept. Field order is free, so
 * the filename is an effect that answers once the body has been read.
 */
export interface JsonUpload {
  readonly body: Stream.Stream<Uint8Array, HeraldError>
  readonly filename: Effect.Effect<string, HeraldError>
}

const Q = 0x22, BS = 0x5c, OPEN = 0x7b, CLOSE = 0x7d, COMMA = 0x2c, COLON = 0x3a
const isWs = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09
const SHORT_FIELD_LIMIT = 4096

// Base64 alphabet (standard and URL-safe): 1 for a data character, 2 for padding.
const b64 = new Uint8Array(256)
for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_") b64[c.charCodeAt(0)] = 1
b64["=".charCodeAt(0)] = 2

type State = "start" | "firstKey" | "nextKey" | "key" | "colon" | "value" | "string" | "skip" | "after" | "end"

const syntax = (detail: string) => fail("invalid_json", undefined, `The JSON body is malformed: ${detail}.`)
const badBase64 = () => invalidFields(["dataBase64"], "dataBase64 is not valid base64.")

/** Base64 characters in, bytes out, four characters at a time; whitespace and a data: URL prefix are skipped. */
class Base64Decoder {
  private pending = Buffer.alloc(0)
  private padded = false
  private lead = ""
  private inPrefix = false
  private seen = 0

  /** `chars` are the string's raw bytes with JSON escapes already resolved. */
  push(chars: Uint8Array, out: Array<Uint8Array>): HeraldError | null {
    const clean = Buffer.allocUnsafe(this.pending.length + chars.length)
    this.pending.copy(clean)
    let n = this.pending.length
    for (let i = 0; i < chars.length; i++) {
      const c = chars[i]
      if (this.seen < 5 || this.inPrefix) {
        // A data URL (`data:image/png;base64,...`) is accepted and its prefix dropped.
        if (this.inPrefix) {
          if (c === COMMA) this.inPrefix = false
          continue
        }
        this.seen++
        const next = this.lead + String.fromCharCode(c)
        if ("data:".startsWith(next)) {
          this.lead = next
          if (next === "data:") {
            this.inPrefix = true
            this.lead = ""
          }
          continue
        }
        if (this.lead !== "") {
          for (let j = 0; j < this.lead.length; j++) clean[n++] = this.lead.charCodeAt(j)
          this.lead = ""
        }
        this.seen = 5
      }
      const kind = b64[c]
      if (kind === 0) {
        if (isWs(c)) continue
        return badBase64()
      }
      if (kind === 2) this.padded = true
      else if (this.padded) return badBase64()
      clean[n++] = c
    }
    const whole = n - (n % 4)
    if (whole > 0) out.push(new Uint8Array(Buffer.from(clean.subarray(0, whole).toString("latin1"), "base64")))
    this.pending = Buffer.from(clean.subarray(whole, n))
    return null
  }

  finish(out: Array<Uint8Array>): HeraldError | null {
    if (this.inPrefix) return badBase64()
    const rest = this.lead + this.pending.toString("latin1")
    if (rest.replace(/=+$/, "").length % 4 === 1) return badBase64()
    if (rest.length > 0) out.push(new Uint8Array(Buffer.from(rest, "base64")))
    return null
  }
}

export const parseJsonUpload = (raw: Stream.Stream<Uint8Array, HeraldError>, maxRawBytes: number): JsonUpload => {
  let state: State = "start"
  let key: Array<number> = []
  let field = "" // the field whose value is being read
  let text: Array<number> = [] // a short string value, raw (escapes resolved by JSON.parse at the end)
  let escape = 0 // 0 none, 1 after a backslash, 2..5 reading \u hex digits
  let hex = ""
  let depth = 0 // while skipping an unknown non-string value
  let skipInString = false
  let total = 0
  const strings = new Map<string, string>()
  let sawData = false
  const decoder = new Base64Decoder()

  const finishString = (): HeraldError | null => {
    if (field === "dataBase64") return null
    if (field === "filename" || field === "contentType") {
      try {
        strings.set(field, JSON.parse(`"${Buffer.from(text).toString("utf8")}"`) as string)
      } catch {
        return syntax(`bad escape in ${field}`)
      }
    }
    return null
  }

  const feed = (chunk: Uint8Array, out: Array<Uint8Array>): HeraldError | null => {
    let dataStart = -1 // where a run of dataBase64 characters began in this chunk
    const flushData = (end: number) => {
      if (dataStart >= 0 && end > dataStart) {
        const error = decoder.push(chunk.subarray(dataStart, end), out)
        dataStart = -1
        return error
      }
      dataStart = -1
      return null
    }
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i]
      switch (state) {
        case "start":
          if (isWs(b)) continue
          if (b !== OPEN) return syntax("expected an object")
          state = "firstKey"
          continue
        case "firstKey":
        case "nextKey":
          if (isWs(b)) continue
          if (b === CLOSE && state === "firstKey") { state = "end"; continue }
          if (b !== Q) return syntax("expected a field name")
          state = "key"
          key = []
          continue
        case "after":
          if (isWs(b)) continue
          if (b === CLOSE) { state = "end"; continue }
          if (b === COMMA) { state = "nextKey"; continue }
          return syntax("expected , or }")
        case "key":
          if (escape === 1) { escape = 0; key.push(b); continue }
          if (b === BS) { escape = 1; key.push(b); continue }
          if (b === Q) { state = "colon"; continue }
          if (key.length > 256) return syntax("field name too long")
          key.push(b)
          continue
        case "colon":
          if (isWs(b)) continue
          if (b !== COLON) return syntax("expected :")
          field = Buffer.from(key).toString("utf8")
          state = "value"
          continue
        case "value":
          if (isWs(b)) continue
          if (b === Q) {
            state = "string"
            text = []
            if (field === "dataBase64") {
              if (sawData) return invalidFields(["dataBase64"], "dataBase64 appears twice.")
              sawData = true
              dataStart = i + 1
            }
            continue
          }
          if (field === "dataBase64" || field === "filename" || field === "contentType")
            return invalidFields([field], `${field} must be a string.`)
          state = "skip"
          depth = 0
          skipInString = false
          i--
          continue
        case "string":
          if (escape === 1) {
            escape = 0
            if (field === "dataBase64") {
              // Escapes inside base64: "\/" is a slash, \n and friends are line breaks, \u00XX a character.
              if (b === 0x75) { escape = 2; hex = ""; continue }
              const mapped = b === 0x2f ? 0x2f : b === 0x6e || b === 0x72 || b === 0x74 ? 0x20 : -1
              if (mapped < 0) return badBase64()
              const error = decoder.push(Uint8Array.of(mapped), out)
              if (error) return error
              dataStart = i + 1
            } else if (text.length < SHORT_FIELD_LIMIT) text.push(b)
            continue
          }
          if (escape >= 2) {
            hex += String.fromCharCode(b)
            if (field !== "dataBase64" && text.length < SHORT_FIELD_LIMIT) text.push(b)
            if (hex.length < 4) continue
            escape = 0
            if (field === "dataBase64") {
              const code = parseInt(hex, 16)
              if (!(code < 128) || Number.isNaN(code)) return badBase64()
              const error = decoder.push(Uint8Array.of(code), out)
              if (error) return error
              dataStart = i + 1
            }
            continue
          }
          if (b === BS) {
            const error = flushData(i)
            if (error) return error
            escape = 1
            if (field !== "dataBase64" && text.length < SHORT_FIELD_LIMIT) text.push(b)
            continue
          }
          if (b === Q) {
            const error = flushData(i) ?? finishString()
            if (error) return error
            if (field === "dataBase64") {
              const end = decoder.finish(out)
              if (end) return end
            }
            state = "after"
            continue
          }
          if (field === "dataBase64") {
            if (dataStart < 0) dataStart = i
            continue
          }
          if (field === "filename" || field === "contentType") {
            if (text.length >= SHORT_FIELD_LIMIT) return invalidFields([field], `${field} is too long.`)
            text.push(b)
          }
          continue
        case "skip":
          // An unknown field's value of any shape is passed over without being kept.
          if (skipInString) {
            if (escape === 1) escape = 0
            else if (b === BS) escape = 1
            else if (b === Q) skipInString = false
            continue
          }
          if (b === Q) { skipInString = true; continue }
          if (b === OPEN || b === 0x5b) { depth++; continue }
          if (b === CLOSE || b === 0x5d) {
            if (depth === 0) { state = "after"; i--; continue }
            depth--
            if (depth === 0) state = "after"
            continue
          }
          if (depth === 0 && (b === COMMA || isWs(b))) { state = "after"; i--; continue }
          continue
        case "end":
          if (!isWs(b)) return syntax("text after the object")
          continue
      }
    }
    return state === "string" && field === "dataBase64" ? flushData(chunk.length) : null
  }

  const body = Stream.suspend(() =>
    Stream.concat(
      Stream.flattenIterable(Stream.mapEffect(raw, (chunk) => {
        const out: Array<Uint8Array> = []
        {
          total += chunk.length
          // The JSON form is about a third larger than the file; anything much bigger is refused early.
          if (total > maxRawBytes) return Effect.fail(fail("file_too_large"))
          const error = feed(chunk, out)
          if (error) return Effect.fail(error)
        }
        return Effect.succeed(out)
      })),
      Stream.fromEffect(Effect.suspend(() => {
        if (state !== "end") return Effect.fail(total === 0 ? invalidFields(["filename", "dataBase64"], "Send a JSON object with filename and dataBase64.") : syntax("unexpected end"))
        if (!sawData) return Effect.fail(invalidFields(strings.has("filename") ? ["dataBase64"] : ["filename", "dataBase64"], "dataBase64 is required."))
        return Effect.succeed(new Uint8Array(0))
      }))
    )
  ).pipe(Stream.filter((c) => c.length > 0))

  const filename = Effect.suspend(() => {
    const name = strings.get("filename")
    return name === undefined || name.trim() === "" ? Effect.fail(invalidFields(["filename"], "filename is required.")) : Effect.succeed(name)
  })
  return { body, filename }
}
