import { CreateBucketCommand, S3Client } from "@aws-sdk/client-s3"
import { assert, describe, it } from "@effect/vitest"
import sharp from "sharp"
import { Effect, Layer, Stream } from "effect"
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as LocalFilesBlobStore from "../../adapters/local-files/LocalFilesBlobStore.ts"
import * as S3BlobStore from "../../adapters/s3/S3BlobStore.ts"
import type { BlobStore } from "../../application/ports/BlobStore.ts"
import { MediaRepo } from "../../application/ports/MediaRepo.ts"
import { authenticateKey } from "../../application/usecases/auth.ts"
import { getPreview, uploadMedia } from "../../application/usecases/media/index.ts"
import { signUp } from "../../application/usecases/signup.ts"
import { catalogue } from "../../domain/errors.ts"
import * as TestHost from "../../hosts/test/TestHost.ts"
import { freePort } from "../support/freePort.ts"
import { fauxqs } from "../support/fauxqs.ts"

const credentials = { accessKeyId: "test", secretAccessKey: "test" }
const png = Effect.promise(() => sharp({ create: { width: 900, height: 600, channels: 3, background: "#964" } }).png().toBuffer())
const actor = Effect.flatMap(signUp({ body: { email: "s3@herald-customer.org" }, ip: "2.2.2.2" }), ({ body }) => authenticateKey(body.apiKey!))

// The test host with its memory store replaced: the later layer's BlobStore wins.
const hostWith = (store: Layer.Layer<BlobStore, unknown>) => Layer.mergeAll(TestHost.layer(), store)

describe("uploads on local files (read in place by the probe)", () => {
  it.live("stored under the data dir, inspected without a scratch copy; a refused upload leaves the dir empty", () =>
    Effect.acquireUseRelease(
      Effect.sync(() => mkdtempSync(join(tmpdir(), "herald-local-media-"))),
      (dir) => Effect.gen(function* () {
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
      }).pipe(Effect.provide(hostWith(LocalFilesBlobStore.layer({ dir, publicUrl: "http://files.test" })))),
      (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
    ))
})

describe("uploads on S3 storage", () => {
  it.live("stored on a private bucket: presigned url with the same bytes, preview read back from S3", () =>
    Effect.scoped(Effect.gen(function* () {
      const server = yield* fauxqs
      const client = new S3Client({ region: "us-east-1", endpoint: server.endpoint, forcePathStyle: true, credentials })
      yield* Effect.promise(() => client.send(new CreateBucketCommand({ Bucket: "media" })))
      client.destroy()
      const store = S3BlobStore.layer({ bucket: "media", region: "us-east-1", endpoint: server.endpoint, credentials })
      yield* Effect.gen(function* () {
        const bytes = yield* png
        const me = yield* actor
        const { media } = yield* uploadMedia(me, "s3.png", Stream.make(bytes), 1024 * 1024)
        assert.isTrue(media.url.startsWith(`${server.endpoint}/media/media/${media.id}/`))
        assert.include(media.url, "X-Amz-Signature=")
        const fetched = yield* Effect.promise(() => fetch(media.url).then(async (r) => Buffer.from(await r.arrayBuffer())))
        assert.isTrue(fetched.equals(bytes))
        const preview = yield* getPreview(me, media.id)
        assert.strictEqual((yield* Effect.promise(() => sharp(preview).metadata())).width, 480)
      }).pipe(Effect.provide(hostWith(store)))
    })))

  it.live("an unreachable provider is 503 upstream_storage_unavailable (retryable), and no record is kept", () =>
    Effect.gen(function* () {
      const port = yield* Effect.promise(freePort)
      const store = S3BlobStore.layer({ bucket: "media", region: "us-east-1", endpoint: `http://127.0.0.1:${port}`, credentials })
      yield* Effect.gen(function* () {
        const me = yield* actor
        const error = yield* Effect.flip(uploadMedia(me, "down.png", Stream.make(yield* png), 1024 * 1024))
        assert.strictEqual(error.code, "upstream_storage_unavailable")
        assert.deepInclude(catalogue.upstream_storage_unavailable, { status: 503, retryable: true })
        assert.strictEqual(yield* (yield* MediaRepo).countByWorkspace(me.workspaceId), 0)
      }).pipe(Effect.provide(hostWith(store)))
    }))

  it("provider answers map to 502 failed or 503 unavailable", () => {
    const e = (status: number | undefined, name: string) => S3BlobStore.toBlobError("put")({ name, $metadata: status === undefined ? {} : { httpStatusCode: status } })
    assert.isFalse(e(403, "AccessDenied").unavailable)
    assert.isFalse(e(500, "InternalError").unavailable)
    assert.isTrue(e(503, "SlowDown").unavailable)
    assert.isTrue(e(undefined, "Error").unavailable)
  })
})
