import { Cause, Effect, Pull, Stream } from "effect"
import { MultipartParser } from "effect/http"
import { filenameProblem } from "../../application/usecases/media/filename.ts"
import { fail, type HeraldError, invalidFields } from "../../domain/errors.ts"

export interface MultipartLimits {
  readonly maxParts: number
  /** A field that is not a file (its value is read past, never kept). */
  readonly maxFieldBytes: number
  /** The whole body; over it is file_too_large. */
  readonly maxTotalBytes: number
  /** What file_too_large reports as the limit. */
  readonly maxFileBytes: number
}

export interface MultipartFile {
  readonly body: Stream.Stream<Uint8Array, HeraldError>
  /** The part's filename, known once the body has been read up to the part. */
  readonly filename: Effect.Effect<string, HeraldError>
}

const noFile = () => invalidFields(["file"], "Send the file in a multipart field named file (with a filename).")
const ignore = () => {}

const toError = (error: MultipartParser.MultipartError, limits: MultipartLimits): HeraldError => {
  if (error._tag === "ReachedLimit") {
    return error.limit === "MaxTotalSize" || error.limit === "MaxPartSize"
      ? fail("file_too_large", { maxBytes: limits.maxFileBytes })
      : invalidFields(["file"], "Send one multipart field named file, and little else.")
  }
  return invalidFields(["file"], "The multipart body is malformed.")
}

// Effect's parser reads the boundary the same way (RFC 7231 parameters, quoted or not).
const boundaryParam =
  /; *([!#$%&'*+.^\w`|~-]+)=("(?:[\t\u0020\u0021\u0023-\u005b\u005d-\u007e\u0080-\u{10ffff}]|\\[\t\u0020-\u{10ffff}])*"|[!#$%&'*+.^\w`|~-]+) */gu
const boundaryOf = (contentType: string | undefined): string | undefined => {
  for (const [, name, value] of (contentType ?? "").matchAll(boundaryParam))
    if (name.toLowerCase() === "boundary")
      return value.startsWith('"') ? value.slice(1, -1).replace(/\\(.)/gu, "$1") : value
  return undefined
}

/**
 * Counts the bytes after a body's closing delimiter (`\r\n--boundary--`), the ones in the chunk where
 * the parser finds it included: `tail` is what came just before that chunk (the parser starts as
 * if the body followed a line break). Without the delimiter in sight, the whole chunk counts.
 */
const epilogueCounter = (boundary: string | undefined) => {
  const close = Buffer.from(`\r\n--${boundary ?? ""}--`, "latin1")
  const keep = close.length - 1
  let tail: Uint8Array = Buffer.from("\r\n")
  return {
    /** Remembers a chunk's last bytes as a copy (a chunk may be freed once written: ports/chunkHandover.ts). */
    passed: (chunk: Uint8Array) => {
      tail = Uint8Array.from(
        chunk.length >= keep ? chunk.subarray(chunk.length - keep) : Buffer.concat([tail, chunk]).subarray(-keep)
      )
    },
    /** Bytes of `chunk` after the closing delimiter, which ends within it. */
    after: (chunk: Uint8Array) => {
      const seen = Buffer.concat([tail, chunk])
      const at = boundary === undefined ? -1 : seen.indexOf(close)
      return at < 0 ? chunk.length : seen.length - (at + close.length)
    }
  }
}

// A part is a file when it has a filename or is sent as bytes, and is not JSON (Effect's own multipart rule).
const isFile = (info: MultipartParser.PartInfo) =>
  !info.contentType.includes("application/json") && MultipartParser.defaultIsFile(info)

/**
 * The first file part named `file` of a multipart body, as a stream of the bytes as they arrive
 * (pieces of the body's own chunks, no copies). Effect's synchronous multipart parser is driven
 * directly by the body's chunks; other parts are read past and never kept. The body is read to its
 * end, so a malformed ending fails the stream like a malformed start.
 */
export const multipartFile = (
  raw: Stream.Stream<Uint8Array, HeraldError>,
  headers: Record<string, string>,
  limits: MultipartLimits
): MultipartFile => {
  let filename: string | null = null
  const body = Stream.transformPull(raw, (upstream) =>
    Effect.sync(() => {
      let out: Array<Uint8Array> = []
      let failure: HeraldError | undefined
      let partsDone = false
      let ended = false
      let after = 0 // bytes past the closing boundary
      const epilogue = epilogueCounter(boundaryOf(headers["content-type"]))
      const parser = MultipartParser.make({
        headers,
        isFile,
        maxParts: limits.maxParts,
        maxFieldSize: limits.maxFieldBytes,
        maxTotalSize: limits.maxTotalBytes,
        onFile: (info) => {
          if (info.name !== "file" || filename !== null) return ignore
          filename = info.filename ?? info.name
          // A bad name stops the body before any of the file's bytes go on.
          const problem = filenameProblem(filename)
          if (problem !== null) {
            failure ??= problem
            return ignore
          }
          return (chunk) => void (chunk !== null && out.push(chunk))
        },
        onField: ignore,
        onError: (error) => void (failure ??= toError(error, limits)),
        onDone: () => void (partsDone = true)
      })
      const write = (chunks: ReadonlyArray<Uint8Array>) => {
        for (const chunk of chunks) {
          if (partsDone) after += chunk.length
          else {
            parser.write(chunk)
            if (partsDone) after += epilogue.after(chunk)
            else epilogue.passed(chunk)
          }
          if (after > limits.maxFieldBytes) failure ??= invalidFields(["file"], "The multipart body is malformed.")
        }
      }
      const pull: Pull.Pull<readonly [Uint8Array, ...Array<Uint8Array>], HeraldError> = Effect.suspend(() => {
        if (failure !== undefined) return Effect.fail(failure)
        if (out.length > 0) {
          const chunks = out as unknown as readonly [Uint8Array, ...Array<Uint8Array>]
          out = []
          return Effect.succeed(chunks)
        }
        if (ended) return filename === null ? Effect.fail(noFile()) : Cause.done()
        return upstream.pipe(
          Effect.map(write),
          Pull.catchDone(() =>
            Effect.sync(() => {
              ended = true
              if (!partsDone) parser.end()
            })
          ),
          Effect.andThen(pull)
        )
      })
      return pull
    })
  )
  return {
    body,
    filename: Effect.suspend(() => (filename === null ? Effect.fail(noFile()) : Effect.succeed(filename)))
  }
}
