import type { Readable } from "node:stream"
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, S3Client } from "@aws-sdk/client-s3"
import { Upload } from "@aws-sdk/lib-storage"
import { getSignedUrl } from "@aws-sdk/s3-request-presigner"
import { Config, Effect, Layer, Option, Stream } from "effect"
import * as NodeStream from "@effect/platform-node/NodeStream"
import { BlobError, BlobNotFound, BlobStore, type BlobStoreShape } from "../../application/ports/BlobStore.ts"

export interface Options {
  readonly bucket: string
  readonly region: string
  /** An S3-compatible server's address; unset means AWS itself. */
  readonly endpoint?: string | undefined
  /** Bucket in the path rather than the host name, which most S3-compatible servers need. */
  readonly forcePathStyle?: boolean | undefined
  /** Base URL of a public bucket (or CDN); unset means a private bucket, whose `url` is presigned. */
  readonly publicBaseUrl?: string | undefined
  /** Presigned URL lifetime; SigV4 allows at most 7 days, which is also an upload's lifetime. */
  readonly presignSeconds?: number | undefined
  /** Explicit keys; unset uses the SDK's default chain (AWS_* variables, profiles, instance roles). */
  readonly credentials?: { readonly accessKeyId: string; readonly secretAccessKey: string } | undefined
  /** Multipart part size and parallel parts: memory held per upload is about their product. */
  readonly partSize?: number | undefined
  readonly queueSize?: number | undefined
}

const SEVEN_DAYS = 7 * 24 * 60 * 60
const networkCodes = new Set([
  "TimeoutError",
  "RequestTimeout",
  "RequestTimeoutException",
  "SlowDown",
  "ServiceUnavailable"
])

interface SdkError {
  readonly name?: string
  readonly code?: string
  readonly message?: string
  readonly $metadata?: { readonly httpStatusCode?: number }
}

const statusOf = (error: unknown) => (error as SdkError)?.$metadata?.httpStatusCode
const isMissing = (error: unknown) => {
  const e = error as SdkError
  return statusOf(error) === 404 || e?.name === "NoSuchKey" || e?.name === "NotFound"
}

/** Unreachable, throttled or 503 is "unavailable" (503); anything else the provider said is "failed" (502). */
export const toBlobError =
  (what: string) =>
  (error: unknown): BlobError => {
    const e = (error ?? {}) as SdkError
    const status = statusOf(error)
    const name = e.name ?? e.code ?? "Error"
    // No HTTP status at all means the provider was never reached.
    const unavailable =
      status === undefined || networkCodes.has(name) || status === 503 || status === 429 || name === "SlowDown"
    return new BlobError(`${what}: ${name}${status ? ` (${status})` : ""}: ${e.message ?? ""}`.trim(), unavailable)
  }

export const make = (options: Options) =>
  Effect.gen(function* () {
    // Asked for a time: that long (a second at least, SigV4's 7 days at most); else the configured lifetime.
    const presignSecondsFor = (validForMs: number | undefined) =>
      validForMs === undefined
        ? (options.presignSeconds ?? SEVEN_DAYS)
        : Math.min(SEVEN_DAYS, Math.max(1, Math.ceil(validForMs / 1000)))
    const client = yield* Effect.acquireRelease(
      Effect.sync(
        () =>
          new S3Client({
            region: options.region,
            ...(options.endpoint ? { endpoint: options.endpoint } : {}),
            forcePathStyle: options.forcePathStyle ?? options.endpoint !== undefined,
            ...(options.credentials ? { credentials: { ...options.credentials } } : {})
          })
      ),
      (c) => Effect.sync(() => c.destroy())
    )
    const Bucket = options.bucket
    const send = <A>(run: (signal: AbortSignal) => Promise<A>) =>
      Effect.tryPromise({ try: run, catch: (error) => error })

    const put: BlobStoreShape["put"] = <E>(key: string, body: Stream.Stream<Uint8Array, E>, contentType: string) =>
      Effect.gen(function* () {
        let size = 0
        let bodyFailure: Option.Option<E> = Option.none()
        // The body's own failure must come back as itself, not as the storage error it causes.
        const counted = body.pipe(
          Stream.mapArray((chunks) => {
            for (const chunk of chunks) size += chunk.length
            return chunks
          }),
          Stream.tapError((error) => Effect.sync(() => void (bodyFailure = Option.some(error))))
        )
        const readable = yield* NodeStream.toReadable(counted)
        const result = yield* Effect.tryPromise({
          try: (signal) => {
            const upload = new Upload({
              client,
              params: { Bucket, Key: key, Body: readable, ContentType: contentType },
              partSize: options.partSize ?? 5 * 1024 * 1024,
              queueSize: options.queueSize ?? 2,
              leavePartsOnError: false
            })
            signal.addEventListener("abort", () => void upload.abort().catch(() => undefined))
            return upload.done()
          },
          catch: (error) => error
        }).pipe(Effect.result)
        if (Option.isSome(bodyFailure)) return yield* Effect.fail(bodyFailure.value)
        if (result._tag === "Failure") {
          readable.destroy()
          return yield* Effect.fail(toBlobError("put")(result.failure))
        }
        return { sizeBytes: size }
      })

    return {
      put,
      get: (key) =>
        Stream.unwrap(
          send((abortSignal) => client.send(new GetObjectCommand({ Bucket, Key: key }), { abortSignal })).pipe(
            Effect.mapError((e) => (isMissing(e) ? new BlobNotFound(key) : toBlobError("get")(e))),
            Effect.map((out) =>
              NodeStream.fromReadable<Uint8Array, BlobError>({
                evaluate: () => out.Body as Readable,
                onError: toBlobError("get")
              })
            )
          )
        ),
      stat: (key) =>
        send((abortSignal) => client.send(new HeadObjectCommand({ Bucket, Key: key }), { abortSignal })).pipe(
          Effect.mapError((e) => (isMissing(e) ? new BlobNotFound(key) : toBlobError("stat")(e))),
          Effect.map((out) => ({
            sizeBytes: out.ContentLength ?? 0,
            contentType: out.ContentType ?? "application/octet-stream"
          }))
        ),
      delete: (key) =>
        send((abortSignal) => client.send(new DeleteObjectCommand({ Bucket, Key: key }), { abortSignal })).pipe(
          Effect.asVoid,
          Effect.catch((e) => (isMissing(e) ? Effect.void : Effect.fail(toBlobError("delete")(e))))
        ),
      url: (key, validForMs) =>
        options.publicBaseUrl
          ? Effect.succeed(`${options.publicBaseUrl.replace(/\/+$/, "")}/${key}`)
          : send(() =>
              getSignedUrl(client, new GetObjectCommand({ Bucket, Key: key }), {
                expiresIn: presignSecondsFor(validForMs)
              })
            ).pipe(Effect.mapError(toBlobError("presign"))),
      localPath: () => Option.none()
    } satisfies BlobStoreShape
  })

export const layer = (options: Options) => Layer.effect(BlobStore)(make(options))

/** S3_BUCKET (required here), S3_REGION, S3_ENDPOINT, S3_FORCE_PATH_STYLE, S3_PUBLIC_URL; keys from the SDK's chain. */
export const options = Config.all({
  bucket: Config.String("S3_BUCKET"),
  region: Config.String("S3_REGION").pipe(Config.withDefault("us-east-1")),
  endpoint: Config.option(Config.String("S3_ENDPOINT")),
  forcePathStyle: Config.option(Config.Boolean("S3_FORCE_PATH_STYLE")),
  publicBaseUrl: Config.option(Config.String("S3_PUBLIC_URL"))
}).pipe(
  Config.map(
    (c): Options => ({
      bucket: c.bucket,
      region: c.region,
      endpoint: Option.getOrUndefined(c.endpoint),
      forcePathStyle: Option.getOrUndefined(c.forcePathStyle),
      publicBaseUrl: Option.getOrUndefined(c.publicBaseUrl)
    })
  )
)

export const layerConfig = Layer.effect(BlobStore)(
  Effect.gen(function* () {
    return yield* make(yield* options)
  })
)
