import { Effect, Stream } from "effect"
import { filenameProblem } from "../../application/usecases/media/filename.ts"
import { fail, type HeraldError, invalidFields } from "../../domain/errors.ts"
import { Base64Decoder, badBase64 } from "./base64Decoder.ts"

/**
 * The JSON upload form, `{filename, dataBase64, contentType}`, read as it arrives: `dataBase64` is
 * decoded incrementally into the body stream, the short fields are kept. Field order is free, so
 * the filename is an effect that answers once the body has been read.
 */
export interface JsonUpload {
  readonly body: Stream.Stream<Uint8Array, HeraldError>
  readonly filename: Effect.Effect<string, HeraldError>
}

const Q = 0x22,
  BS = 0x5c,
  OPEN = 0x7b,
  CLOSE = 0x7d,
  COMMA = 0x2c,
  COLON = 0x3a
const isWs = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09
const SHORT_FIELD_LIMIT = 4096
const utf8 = new TextDecoder("utf-8", { fatal: true })

type State = "start" | "firstKey" | "nextKey" | "key" | "colon" | "value" | "string" | "skip" | "after" | "end"

const syntax = (detail: string) => fail("invalid_json", undefined, `The JSON body is malformed: ${detail}.`)

export const parseJsonUpload = (raw: Stream.Stream<Uint8Array, HeraldError>, maxRawBytes: number): JsonUpload => {
  let state: State = "start"
  let key: Array<number> = []
  let field = "" // the field whose value is being read
  let text: Array<number> = [] // a short string value, raw (escapes resolved by JSON.parse at the end)
  let escaping = 0 // 0 none, 1 after a backslash, 2..5 reading \u hex digits
  let hex = ""
  let depth = 0 // while skipping an unknown non-string value
  let skipInString = false
  let total = 0
  const strings = new Map<string, string>()
  let sawData = false
  const decoder = new Base64Decoder()

  const finishString = (): HeraldError | null => {
    if (field !== "filename" && field !== "contentType") return null
    let raw: string
    try {
      raw = utf8.decode(Uint8Array.from(text))
    } catch {
      return invalidFields([field], `${field} is not valid UTF-8.`)
    }
    let value: string
    try {
      value = JSON.parse(`"${raw}"`) as string
    } catch {
      return syntax(`bad escape in ${field}`)
    }
    strings.set(field, value)
    // A bad name stops the body here, before the rest of the file is stored (when it comes first).
    return field === "filename" ? filenameProblem(value) : null
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
          if (b === CLOSE && state === "firstKey") {
            state = "end"
            continue
          }
          if (b !== Q) return syntax("expected a field name")
          state = "key"
          key = []
          continue
        case "after":
          if (isWs(b)) continue
          if (b === CLOSE) {
            state = "end"
            continue
          }
          if (b === COMMA) {
            state = "nextKey"
            continue
          }
          return syntax("expected , or }")
        case "key":
          if (escaping === 1) {
            escaping = 0
            key.push(b)
            continue
          }
          if (b === BS) {
            escaping = 1
            key.push(b)
            continue
          }
          if (b === Q) {
            state = "colon"
            continue
          }
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
          if (escaping === 1) {
            escaping = 0
            if (field === "dataBase64") {
              // Escapes inside base64: "\/" is a slash, \n and friends are line breaks, \u00XX a character.
              if (b === 0x75) {
                escaping = 2
                hex = ""
                continue
              }
              const mapped = b === 0x2f ? 0x2f : b === 0x6e || b === 0x72 || b === 0x74 ? 0x20 : -1
              if (mapped < 0) return badBase64()
              const error = decoder.push(Uint8Array.of(mapped), out)
              if (error) return error
              dataStart = i + 1
            } else if (text.length < SHORT_FIELD_LIMIT) text.push(b)
            continue
          }
          if (escaping >= 2) {
            hex += String.fromCharCode(b)
            if (field !== "dataBase64" && text.length < SHORT_FIELD_LIMIT) text.push(b)
            if (hex.length < 4) continue
            escaping = 0
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
            escaping = 1
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
            // Jump to the next quote or backslash: the characters in between go to the decoder as one run.
            if (dataStart < 0) dataStart = i
            const q = chunk.indexOf(Q, i)
            const bs = chunk.indexOf(BS, i)
            const next = q < 0 ? bs : bs < 0 ? q : Math.min(q, bs)
            if (next < 0) i = chunk.length - 1
            else i = next - 1
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
            if (escaping === 1) escaping = 0
            else if (b === BS) escaping = 1
            else if (b === Q) skipInString = false
            continue
          }
          if (b === Q) {
            skipInString = true
            continue
          }
          if (b === OPEN || b === 0x5b) {
            depth++
            continue
          }
          if (b === CLOSE || b === 0x5d) {
            if (depth === 0) {
              state = "after"
              i--
              continue
            }
            depth--
            if (depth === 0) state = "after"
            continue
          }
          if (depth === 0 && (b === COMMA || isWs(b))) {
            state = "after"
            i--
            continue
          }
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
      Stream.flattenIterable(
        Stream.mapEffect(raw, (chunk) => {
          const out: Array<Uint8Array> = []
          {
            total += chunk.length
            // The JSON form is about a third larger than the file; anything much bigger is refused early.
            if (total > maxRawBytes) return Effect.fail(fail("file_too_large"))
            const error = feed(chunk, out)
            if (error) return Effect.fail(error)
          }
          return Effect.succeed(out)
        })
      ),
      Stream.fromEffect(
        Effect.suspend(() => {
          if (state !== "end")
            return Effect.fail(
              total === 0
                ? invalidFields(["filename", "dataBase64"], "Send a JSON object with filename and dataBase64.")
                : syntax("unexpected end")
            )
          if (!sawData)
            return Effect.fail(
              invalidFields(
                strings.has("filename") ? ["dataBase64"] : ["filename", "dataBase64"],
                "dataBase64 is required."
              )
            )
          return Effect.succeed(new Uint8Array(0))
        })
      )
    )
  ).pipe(Stream.filter((c) => c.length > 0))

  const filename = Effect.suspend(() => {
    const name = strings.get("filename")
    return name === undefined || name.trim() === ""
      ? Effect.fail(invalidFields(["filename"], "filename is required."))
      : Effect.succeed(name)
  })
  return { body, filename }
}
