import { Effect, Exit, Stream } from "effect"
import { describe, expect, it } from "vitest"
import { parseJsonUpload } from "../../hosts/http/mediaJson.ts"

const data = Buffer.from(Array.from({ length: 1000 }, (_, i) => (i * 37 + 11) % 256))
const b64 = data.toString("base64")

/** Parses `text` fed in pieces of `step` bytes; gives the bytes and filename, or the error. */
const parse = (text: string, step = 1 << 20) => {
  const bytes = Buffer.from(text, "utf8")
  const chunks = Array.from(
    { length: Math.ceil(bytes.length / step) },
    (_, i) => new Uint8Array(bytes.subarray(i * step, (i + 1) * step))
  )
  const upload = parseJsonUpload(Stream.fromArray(chunks), 10 * 1024 * 1024)
  return Effect.runSync(
    Effect.exit(
      Effect.gen(function* () {
        const out = yield* Stream.runCollect(upload.body)
        return { bytes: Buffer.concat(out), filename: yield* upload.filename }
      })
    )
  )
}

const ok = (text: string, step?: number) => {
  const exit = parse(text, step)
  if (Exit.isFailure(exit)) throw new Error(`expected success: ${JSON.stringify(exit.cause)}`)
  return exit.value
}
const errorOf = (text: string) => {
  const exit = parse(text)
  if (Exit.isSuccess(exit)) throw new Error("expected a failure")
  return (exit.cause.reasons[0] as { error: { code: string; details?: { fields?: Array<string> } } }).error
}

describe("JSON upload body, read incrementally", () => {
  it("decodes the same bytes whatever the chunking", () => {
    const text = JSON.stringify({ filename: 'a\u00e9\\"b.png', contentType: "image/png", dataBase64: b64 })
    for (const step of [1, 2, 3, 5, 7, 64, 4096]) {
      const { bytes, filename } = ok(text, step)
      expect(bytes.equals(data)).toBe(true)
      expect(filename).toBe('a\u00e9\\"b.png')
    }
  })

  it("accepts any field order, unknown fields of any shape, whitespace and line breaks in base64, URL-safe base64, escaped slashes and a data: URL", () => {
    const wrapped = b64.replace(/(.{76})/g, "$1\\n")
    const text = `{ "meta": {"a": [1, "x\\"}", {"b": null}]}, "n": -1.5e3, "t": true, "dataBase64" : "data:image/png;base64,${wrapped.replace(/\//g, "\\/")}" , "filename":"z.png" }`
    expect(ok(text, 3).bytes.equals(data)).toBe(true)
    const urlSafe = b64.replace(/\+/g, "-").replace(/\//g, "_")
    expect(ok(`{"filename":"u.png","dataBase64":"${urlSafe}"}`).bytes.equals(data)).toBe(true)
  })

  it("names the missing or malformed fields", () => {
    expect(errorOf(`{"filename":"a.png"}`)).toMatchObject({
      code: "validation_failed",
      details: { fields: ["dataBase64"] }
    })
    expect(errorOf(`{}`)).toMatchObject({ code: "validation_failed", details: { fields: ["filename", "dataBase64"] } })
    expect(errorOf(``)).toMatchObject({ code: "validation_failed" })
    expect(errorOf(`{"filename":"a.png","dataBase64":"AAAA*AAA"}`)).toMatchObject({
      details: { fields: ["dataBase64"] }
    })
    expect(errorOf(`{"filename":"a.png","dataBase64":"AA==AA"}`)).toMatchObject({ details: { fields: ["dataBase64"] } })
    expect(errorOf(`{"filename":"a.png","dataBase64":"A"}`)).toMatchObject({ details: { fields: ["dataBase64"] } })
    expect(errorOf(`{"filename":"a.png","dataBase64":42}`)).toMatchObject({ details: { fields: ["dataBase64"] } })
    expect(errorOf(`{"filename":"a.png","dataBase64":"AAAA","dataBase64":"AAAA"}`)).toMatchObject({
      details: { fields: ["dataBase64"] }
    })
  })

  it("malformed JSON is invalid_json", () => {
    for (const text of [
      `[1]`,
      `{"filename" "a"}`,
      `{"filename":"a.png","dataBase64":"AAAA"`,
      `{"filename":"a.png","dataBase64":"AAAA"} x`,
      `{"a":1,}`
    ])
      expect(errorOf(text).code).toBe("invalid_json")
  })
})
