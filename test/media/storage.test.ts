import { CreateBucketCommand, S3Client } from "@aws-sdk/client-s3"
import { assert, describe, it } from "@effect/vitest"
import sharp from "sharp"
import { Effect, Layer, Stream } from "effect"
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as HmacFileLinks from "../../adapters/crypto/HmacFileLinks.ts"
import * as LocalFilesBlobStore from "../../adapters/local-files/LocalFilesBlobStore.ts"
import * as S3BlobStore from "../../adapters/s3/S3BlobStore.ts"
import type { BlobStore } from "../../application/ports/BlobStore.ts"
import { MediaRepo } from "../../application/ports/MediaRepo.ts"
import { authenticateKey } from "../../application/usecases/auth.ts"
import { handOver, release } from "../../application/ports/chunkHandover.ts"
import { getPreview, uploadMedia } from "../../application/usecases/media/index.ts"
import { signUp } from "../../application/usecases/signup.ts"
import { catalogue } from "../../domain/errors.ts"
import * as TestHost from "../../hosts/test/TestHost.ts"
import { freePort } from "../support/freePort.ts"
import { fauxqs } from "../support/fauxqs.ts"

const credentials = { accessKeyId: "test", secretAccessKey: "test" }
const png = Effect.promise(() =>
  sharp({ create: { width: 900, height: 600, channels: 3, background: "#964" } })
    .png()
    .toBuffer()
)
const noisyPng = Effect.promise(() =>
  sharp({
    create: {
      width: 700,
      height: 500,
      channels: 3,
      background: "#964",
      noise: { type: "gaussian", mean: 128, sigma: 50 }
    }
  })
    .png()
    .toBuffer()
)

/** The bytes in 64 KiB chunks of their own, handed over as the HTTP host hands over socket chunks. */
const handedOver = (bytes: Uint8Array) =>
  Array.from({ length: Math.ceil(bytes.length / 65536) }, (_, i) =>
    handOver(Uint8Array.from(bytes.subarray(i * 65536, (i + 1) * 65536)))
  )
const actor = Effect.flatMap(signUp({ body: { email: "s3@herald-customer.org" }, ip: "2.2.2.2" }), ({ body }) =>
  authenticateKey(body.apiKey!)
)

// The test host with its memory store replaced: the later layer's BlobStore wins.
const hostWith = (store: Layer.Layer<BlobStore, unknown>) => Layer.mergeAll(TestHost.layer(), store)

describe("uploads on local files (read in place by the probe)", () => {
  it.live("stored under the data dir, inspected without a scratch copy; a refused upload leaves the dir empty", () =>
    Effect.acquireUseRelease(
      Effect.sync(() => mkdtempSync(join(tmpdir(), "herald-local-media-"))),
      (dir) =>
        Effect.gen(function* () {
          const me = yield* actor
          const bytes = yield* png
          const { media } = yield* uploadMedia(me, "local.png", Stream.make(bytes), 1024 * 1024)
          assert.isTrue(media.url.startsWith("http://files.test/files/media/"))
          const file = join(dir, new URL(media.url).pathname.slice("/files/".length))
          assert.isTrue(readFileSync(file).equals(bytes))
          const preview = yield* getPreview(me, media.id)
          assert.strictEqual((yield* Effect.promise(() => sharp(preview).metadata())).width, 480)
          const before = readdirSync(dir, { recursive: true }).length
          const cut = yield* Effect.flip(uploadMedia(me, "cut.png", Stream.make(bytes.subarray(0, 2000)), 1024 * 1024))
          assert.strictEqual(cut.code, "media_unreadable")
          assert.strictEqual(readdirSync(dir, { recursive: true }).length, before)
        }).pipe(
          Effect.provide(
            hostWith(
              LocalFilesBlobStore.layer({ dir, publicUrl: "http://files.test" }).pipe(
                Layer.provide(HmacFileLinks.layer("test"))
              )
            )
          )
        ),
      (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
    )
  )
})

describe("chunks handed over to storage", () => {
  it("only a view over its whole buffer is handed over, and release frees only those", () => {
    const own = handOver(new Uint8Array(1000).fill(1))
    const shared = new Uint8Array(2000).fill(2)
    const view = handOver(shared.subarray(0, 1000))
    release(view)
    assert.strictEqual(shared.length, 2000)
    assert.strictEqual(view.length, 1000)
    release(own)
    assert.strictEqual(own.length, 0)
    release(own)
    const unmarked = new Uint8Array(10)
    release(unmarked)
    assert.strictEqual(unmarked.length, 10)
  })

  it.live("local files free each handed-over chunk once written; the file is the upload byte for byte", () =>
    Effect.acquireUseRelease(
      Effect.sync(() => mkdtempSync(join(tmpdir(), "herald-handover-"))),
      (dir) =>
        Effect.gen(function* () {
          const bytes = yield* noisyPng
          const chunks = handedOver(bytes)
          assert.isAbove(chunks.length, 4)
          const { media } = yield* uploadMedia(yield* actor, "noisy.png", Stream.fromIterable(chunks), 10 * 1024 * 1024)
          assert.isTrue(readFileSync(join(dir, new URL(media.url).pathname.slice("/files/".length))).equals(bytes))
          assert.deepStrictEqual(
            chunks.map((c) => c.length),
            chunks.map(() => 0)
          )
          assert.strictEqual(media.width, 700)
        }).pipe(
          Effect.provide(
            hostWith(
              LocalFilesBlobStore.layer({ dir, publicUrl: "http://files.test" }).pipe(
                Layer.provide(HmacFileLinks.layer("test"))
              )
            )
          )
        ),
      (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
    )
  )

  it.live("the store frees a chunk only after its write: a failed body keeps the ones not yet written", () =>
    Effect.acquireUseRelease(
      Effect.sync(() => mkdtempSync(join(tmpdir(), "herald-handover-"))),
      (dir) =>
        Effect.gen(function* () {
          const store = yield* LocalFilesBlobStore.make({
            dir,
            publicUrl: "http://files.test",
            links: HmacFileLinks.make("test")
          })
          // A megabyte is written as one batch; the last four chunks never are.
          const chunks = Array.from({ length: 20 }, () => handOver(new Uint8Array(65536).fill(9)))
          const body = Stream.concat(Stream.rechunk(Stream.fromIterable(chunks), 1), Stream.fail("gone" as const))
          assert.strictEqual(yield* Effect.flip(store.put("media/m/x.png", body, "image/png")), "gone")
          assert.deepStrictEqual(
            chunks.map((c) => c.length),
            [...Array(16).fill(0), ...Array(4).fill(65536)]
          )
          assert.deepStrictEqual(
            readdirSync(dir, { recursive: true }).filter(
              (f) => String(f).endsWith(".part") || String(f).endsWith(".png")
            ),
            []
          )
        }),
      (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
    )
  )
})

describe("uploads on S3 storage", () => {
  it.live("stored on a private bucket: presigned url with the same bytes, preview read back from S3", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const server = yield* fauxqs
        const client = new S3Client({
          region: "us-east-1",
          endpoint: server.endpoint,
          forcePathStyle: true,
          credentials
        })
        yield* Effect.promise(() => client.send(new CreateBucketCommand({ Bucket: "media" })))
        client.destroy()
        const store = S3BlobStore.layer({
          bucket: "media",
          region: "us-east-1",
          endpoint: server.endpoint,
          credentials
        })
        yield* Effect.gen(function* () {
          const bytes = yield* noisyPng
          const me = yield* actor
          // Chunks handed over go to the scratch copy and to S3, so neither may free them.
          const chunks = handedOver(bytes)
          const { media } = yield* uploadMedia(me, "s3.png", Stream.fromIterable(chunks), 10 * 1024 * 1024)
          assert.isTrue(Buffer.concat(chunks).equals(bytes))
          assert.isTrue(media.url.startsWith(`${server.endpoint}/media/media/${media.id}/`))
          assert.include(media.url, "X-Amz-Signature=")
          const fetched = yield* Effect.promise(() =>
            fetch(media.url).then(async (r) => Buffer.from(await r.arrayBuffer()))
          )
          assert.isTrue(fetched.equals(bytes))
          const preview = yield* getPreview(me, media.id)
          assert.strictEqual((yield* Effect.promise(() => sharp(preview).metadata())).width, 480)
        }).pipe(Effect.provide(hostWith(store)))
      })
    )
  )

  it.live("an unreachable provider is 503 upstream_storage_unavailable (retryable), and no record is kept", () =>
    Effect.gen(function* () {
      const port = yield* Effect.promise(freePort)
      const store = S3BlobStore.layer({
        bucket: "media",
        region: "us-east-1",
        endpoint: `http://127.0.0.1:${port}`,
        credentials
      })
      yield* Effect.gen(function* () {
        const me = yield* actor
        const error = yield* Effect.flip(uploadMedia(me, "down.png", Stream.make(yield* png), 1024 * 1024))
        assert.strictEqual(error.code, "upstream_storage_unavailable")
        assert.deepInclude(catalogue.upstream_storage_unavailable, { status: 503, retryable: true })
        assert.strictEqual(yield* (yield* MediaRepo).countByWorkspace(me.workspaceId), 0)
      }).pipe(Effect.provide(hostWith(store)))
    })
  )

  it("provider answers map to 502 failed or 503 unavailable", () => {
    const e = (status: number | undefined, name: string) =>
      S3BlobStore.toBlobError("put")({ name, $metadata: status === undefined ? {} : { httpStatusCode: status } })
    assert.isFalse(e(403, "AccessDenied").unavailable)
    assert.isFalse(e(500, "InternalError").unavailable)
    assert.isTrue(e(503, "SlowDown").unavailable)
    assert.isTrue(e(undefined, "Error").unavailable)
  })
})
