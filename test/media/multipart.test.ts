import { Effect, Exit, Stream } from "effect"
import { describe, expect, it } from "vitest"
import type { HeraldError } from "../../domain/errors.ts"
import { multipartFile } from "../../hosts/http/mediaMultipart.ts"

const boundary = "----herald7MA4YWxkTrZu0gW"
const headers = { "content-type": `multipart/form-data; boundary=${boundary}` }
const limits = { maxParts: 16, maxFieldBytes: 64 * 1024, maxTotalBytes: 1024 * 1024, maxFileBytes: 1000 * 1000 }

// Everything that looks like the start of the delimiter without being it, and lone line breaks.
const tricky = Buffer.from(
  [
    "\x89PNG\r\n\x1a\n",
    `\r\n--${boundary.slice(0, -1)}`,
    "\r\n-",
    "\r\n--",
    "\r",
    "\r\n",
    `--${boundary}`,
    `\n--${boundary}`,
    `\r\n--${boundary.slice(0, 10)}\r\n--${boundary.slice(0, 20)}`,
    String.fromCharCode(...Array.from({ length: 300 }, (_, i) => (i * 37) & 255)),
    `\r\n--${boundary.slice(0, -2)}`
  ].join("x"),
  "latin1"
)

const part = (disposition: string, content: Uint8Array | string, type?: string) =>
  Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; ${disposition}\r\n${type ? `Content-Type: ${type}\r\n` : ""}\r\n`
    ),
    Buffer.from(content),
    Buffer.from("\r\n")
  ])
const body = (...parts: Array<Buffer>) => Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)])

const read = (chunks: ReadonlyArray<Uint8Array>, h: Record<string, string> = headers, l = limits) =>
  Effect.runPromise(
    Effect.exit(
      Effect.gen(function* () {
        const file = multipartFile(Stream.fromIterable(chunks), h, l)
        const out = yield* Stream.runCollect(file.body)
        return { bytes: Buffer.concat(out), filename: yield* file.filename }
      })
    )
  )

const ok = async (chunks: ReadonlyArray<Uint8Array>) => {
  const exit = await read(chunks)
  if (Exit.isFailure(exit)) throw new Error(`expected success: ${JSON.stringify(exit.cause)}`)
  return exit.value
}
const failure = async (chunks: ReadonlyArray<Uint8Array>, h = headers, l = limits) => {
  const exit = await read(chunks, h, l)
  if (Exit.isSuccess(exit)) throw new Error("expected a failure")
  return (exit.cause.reasons[0] as unknown as { error: HeraldError }).error
}

const whole = body(
  part(`name="note"`, "first a field"),
  part(`name="file"; filename="C:\\fakepath\\tricky.png"`, tricky, "image/png"),
  part(`name="file"; filename="second.png"`, "a second file part is read past"),
  part(`name="json"`, '{"a":1}', "application/json")
)

describe("multipart bodies read for POST /media", () => {
  it("gives the first file part named file byte for byte, wherever the chunks are cut", async () => {
    for (let cut = 1; cut < whole.length; cut++) {
      const { bytes, filename } = await ok([whole.subarray(0, cut), whole.subarray(cut)])
      expect(bytes.equals(tricky), `cut at ${cut}`).toBe(true)
      expect(filename).toBe("C:\\fakepath\\tricky.png")
    }
  })

  it("survives one-byte chunks and chunks of every small size", async () => {
    for (const size of [1, 2, 3, 5, 7, 13, 29, 64]) {
      const chunks = Array.from({ length: Math.ceil(whole.length / size) }, (_, i) =>
        whole.subarray(i * size, (i + 1) * size)
      )
      expect((await ok(chunks)).bytes.equals(tricky), `chunks of ${size}`).toBe(true)
    }
  })

  it("passes whole chunks of the file on as they are, without copies", async () => {
    const middle = Buffer.alloc(4096, 7)
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\n\r\n`)
    // The header chunk carries the file's first bytes, as one off a socket does.
    const chunks = [Buffer.concat([head, Buffer.from("abc")]), middle, Buffer.from(`\r\n--${boundary}--\r\n`)]
    const file = multipartFile(Stream.fromIterable(chunks), headers, limits)
    const out = await Effect.runPromise(Stream.runCollect(file.body))
    expect(out).toContain(middle)
  })

  it("a file part with a filename* (RFC 5987) gives the decoded name", async () => {
    const named = body(part(`name="file"; filename="x.png"; filename*=UTF-8''%C3%A9t%C3%A9.png`, "bytes"))
    expect((await ok([named])).filename).toBe("été.png")
  })

  it("no file part named file is validation_failed on file", async () => {
    const error = await failure([body(part(`name="note"`, "no file"), part(`name="other"; filename="a.png"`, "x"))])
    expect(error).toMatchObject({ code: "validation_failed", details: { fields: ["file"] } })
    expect(String(error.detail)).toContain("named file")
  })

  it("a body without its closing delimiter, or without a boundary, is malformed", async () => {
    const cut = whole.subarray(0, whole.length - `--${boundary}--\r\n`.length - 10)
    expect(await failure([cut])).toMatchObject({ code: "validation_failed", details: { fields: ["file"] } })
    expect(String((await failure([whole], { "content-type": "multipart/form-data" })).detail)).toContain("malformed")
  })

  it("too many parts or a large field is validation_failed; a body over the total is file_too_large", async () => {
    const many = body(...Array.from({ length: 17 }, (_, i) => part(`name="f${i}"`, "x")))
    expect(String((await failure([many])).detail)).toContain("little else")
    const bigField = body(part(`name="note"`, "x".repeat(64 * 1024 + 1)), part(`name="file"; filename="a.png"`, "x"))
    expect(String((await failure([bigField])).detail)).toContain("little else")
    const big = body(part(`name="file"; filename="a.png"`, Buffer.alloc(1024 * 1024 + 1)))
    expect(await failure([big])).toMatchObject({ code: "file_too_large", details: { maxBytes: limits.maxFileBytes } })
  })

  it("reads to the end of the body: a long epilogue is malformed, a short one is fine", async () => {
    const short = Buffer.concat([whole, Buffer.from("\r\nthat was all\r\n")])
    expect((await ok([short])).bytes.equals(tricky)).toBe(true)
    const long = [whole, ...Array.from({ length: 5 }, () => Buffer.alloc(16 * 1024, 1))]
    expect(String((await failure(long)).detail)).toContain("malformed")
  })

  it("counts the epilogue that arrives in the closing boundary's own chunk", async () => {
    const epilogue = (size: number) => Buffer.alloc(size, 0x61)
    // One chunk: the whole body and its epilogue together.
    expect(String((await failure([Buffer.concat([whole, epilogue(64 * 1024 + 1)])])).detail)).toContain("malformed")
    // The line break that ends the closing delimiter's line counts as epilogue too.
    expect((await ok([Buffer.concat([whole, epilogue(64 * 1024 - 2)])])).bytes.equals(tricky)).toBe(true)
    // The closing delimiter split over several chunks, the epilogue in the last one.
    const end = whole.length - 8
    expect(
      String(
        (await failure([whole.subarray(0, end), Buffer.concat([whole.subarray(end), epilogue(64 * 1024 + 1)])])).detail
      )
    ).toContain("malformed")
    const bytewise = Array.from({ length: 40 }, (_, i) => whole.subarray(whole.length - 40 + i, whole.length - 39 + i))
    expect(
      String(
        (
          await failure([
            whole.subarray(0, whole.length - 40),
            ...bytewise.slice(0, -1),
            Buffer.concat([bytewise.at(-1)!, epilogue(64 * 1024 + 1)])
          ])
        ).detail
      )
    ).toContain("malformed")
    // A quoted boundary parameter is read the same way.
    const quoted = { "content-type": `multipart/form-data; boundary="${boundary}"` }
    expect(String((await failure([Buffer.concat([whole, epilogue(64 * 1024 + 1)])], quoted)).detail)).toContain(
      "malformed"
    )
    // A closing chunk bigger than the limit, mostly file, with a short epilogue, is fine.
    const bigFile = Buffer.alloc(100 * 1024, 7)
    const big = Buffer.concat([body(part(`name="file"; filename="a.bin"`, bigFile)), epilogue(100)])
    for (const h of [headers, quoted]) {
      const exit = await read([big], h)
      expect(Exit.isSuccess(exit) && exit.value.bytes.equals(bigFile)).toBe(true)
    }
    // Part of it in the boundary's chunk, the rest after.
    expect(
      String((await failure([Buffer.concat([whole, epilogue(40 * 1024)]), epilogue(30 * 1024)])).detail)
    ).toContain("malformed")
  })

  it("a failing body fails the file stream with the body's error", async () => {
    const cutShort = { code: "validation_failed", detail: "cut short" } as unknown as HeraldError
    const broken = Stream.concat(Stream.make(whole.subarray(0, 200)), Stream.fail(cutShort))
    const file = multipartFile(broken, headers, limits)
    const exit = await Effect.runPromise(Effect.exit(Stream.runCollect(file.body)))
    expect(Exit.isFailure(exit) && (exit.cause.reasons[0] as unknown as { error: unknown }).error).toBe(cutShort)
  })
})
