import { randomBytes } from "node:crypto"
import { assert, layer } from "@effect/vitest"
import { Clock, Effect, type Layer, Stream } from "effect"
import { BlobStore } from "../../application/ports/BlobStore.ts"
import { invalidFields } from "../../domain/errors.ts"

/** Bytes as a stream of `size`-byte chunks, the way an upload arrives. */
const chunks = (bytes: Uint8Array, size: number) =>
  Stream.fromIterable(
    Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size))
  )

const collect = (stream: Stream.Stream<Uint8Array, unknown>) =>
  Effect.map(Stream.runCollect(stream), (parts) =>
    Buffer.concat(parts.map((p) => Buffer.from(p.buffer, p.byteOffset, p.length)))
  )

const fetchBytes = (url: string) =>
  Effect.promise(async () => {
    const res = await fetch(url)
    return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) }
  })

let n = 0
const key = (ext: string) =>
  `media/med_contract${Date.now().toString(36)}${++n}/${randomBytes(8).toString("hex")}.${ext}`

/**
 * The BlobStore contract: every adapter (memory, local files, S3) passes the same cases, with real
 * bytes compared after streamed and multipart writes, and its `url` fetched with plain HTTP.
 */
export const blobStoreContract = (name: string, store: Layer.Layer<BlobStore, unknown>) =>
  layer(store, { timeout: 120_000 })(`BlobStore contract (${name})`, (it) => {
    it.effect("put streams small chunks; get, stat and url give back the identical bytes", () =>
      Effect.gen(function* () {
        const blobs = yield* BlobStore
        const bytes = randomBytes(300_001)
        const k = key("png")
        const put = yield* blobs.put(k, chunks(bytes, 997), "image/png")
        assert.strictEqual(put.sizeBytes, bytes.length)
        assert.isTrue((yield* collect(blobs.get(k))).equals(bytes))
        assert.deepStrictEqual(yield* blobs.stat(k), { sizeBytes: bytes.length, contentType: "image/png" })
        const fetched = yield* fetchBytes(yield* blobs.url(k))
        assert.strictEqual(fetched.status, 200)
        assert.isTrue(fetched.bytes.equals(bytes))
      })
    )

    it.effect("url asked for a time opens now, and says that time where the store signs it", () =>
      Effect.gen(function* () {
        const blobs = yield* BlobStore
        const bytes = randomBytes(2048)
        const k = key("jpg")
        yield* blobs.put(k, Stream.make(bytes), "image/jpeg")
        const url = new URL(yield* blobs.url(k, 3_600_000))
        assert.isTrue((yield* fetchBytes(url.toString())).bytes.equals(bytes))
        const presigned = url.searchParams.get("X-Amz-Expires")
        const signed = url.searchParams.get("expires")
        if (presigned !== null) assert.strictEqual(presigned, "3600")
        else assert.approximately(Number(signed) * 1000 - (yield* Clock.currentTimeMillis), 3_600_000, 1_000)
      })
    )

    it.effect("a large write (13 MiB, a multipart upload on S3) reads back byte for byte", () =>
      Effect.gen(function* () {
        const blobs = yield* BlobStore
        const bytes = randomBytes(13 * 1024 * 1024 + 12345)
        const k = key("mp4")
        assert.strictEqual((yield* blobs.put(k, chunks(bytes, 64 * 1024), "video/mp4")).sizeBytes, bytes.length)
        assert.isTrue((yield* collect(blobs.get(k))).equals(bytes))
        const fetched = yield* fetchBytes(yield* blobs.url(k))
        assert.isTrue(fetched.bytes.equals(bytes))
        assert.strictEqual((yield* blobs.stat(k)).sizeBytes, bytes.length)
      })
    )

    it.effect("an empty object and an overwritten key behave", () =>
      Effect.gen(function* () {
        const blobs = yield* BlobStore
        const k = key("jpg")
        assert.strictEqual((yield* blobs.put(k, Stream.empty, "image/jpeg")).sizeBytes, 0)
        assert.strictEqual((yield* collect(blobs.get(k))).length, 0)
        yield* blobs.put(k, Stream.make(new Uint8Array([1, 2, 3])), "image/jpeg")
        assert.deepStrictEqual([...(yield* collect(blobs.get(k)))], [1, 2, 3])
      })
    )

    it.effect("delete removes the object; deleting again is fine; a missing key is BlobNotFound", () =>
      Effect.gen(function* () {
        const blobs = yield* BlobStore
        const k = key("webp")
        yield* blobs.put(k, Stream.make(randomBytes(1000)), "image/webp")
        yield* blobs.delete(k)
        yield* blobs.delete(k)
        assert.strictEqual((yield* Effect.flip(blobs.stat(k)))._tag, "BlobNotFound")
        const missing: unknown = yield* Effect.flip(collect(blobs.get(k)))
        assert.strictEqual((missing as { _tag: string })._tag, "BlobNotFound")
        assert.strictEqual((yield* Effect.flip(blobs.stat(key("gif"))))._tag, "BlobNotFound")
        assert.strictEqual((yield* fetchBytes(yield* blobs.url(k))).status >= 400, true)
      })
    )

    it.effect("a body that fails mid-way fails the put with its own error and stores nothing", () =>
      Effect.gen(function* () {
        const blobs = yield* BlobStore
        const k = key("mov")
        const broken = Stream.concat(
          chunks(randomBytes(6 * 1024 * 1024), 64 * 1024),
          Stream.fail(invalidFields(["file"], "body broke"))
        )
        const error = yield* Effect.flip(blobs.put(k, broken, "video/quicktime"))
        assert.strictEqual((error as { detail?: string }).detail, "body broke")
        assert.strictEqual((yield* Effect.flip(blobs.stat(k)))._tag, "BlobNotFound")
      })
    )
  })
