import { assert, describe, it } from "@effect/vitest"
import sharp from "sharp"
import { Effect, Option, Stream } from "effect"
import { TestClock } from "effect/testing"
import { StoredBlobs } from "../../adapters/memory/MemoryBlobStore.ts"
import { AccountRepo } from "../../application/ports/AccountRepo.ts"
import { BlobStore } from "../../application/ports/BlobStore.ts"
import { MediaRepo } from "../../application/ports/MediaRepo.ts"
import { authenticateKey } from "../../application/usecases/auth.ts"
import { getPreview, sweepExpiredMedia, uploadMedia } from "../../application/usecases/media/index.ts"
import { createPost } from "../../application/usecases/posts/create.ts"
import { signUp } from "../../application/usecases/signup.ts"
import { invalidFields } from "../../domain/errors.ts"
import * as TestHost from "../../hosts/test/TestHost.ts"

const png = Effect.promise(() =>
  sharp({ create: { width: 600, height: 400, channels: 3, background: "#48c" } })
    .png()
    .toBuffer()
)

const setUp = Effect.gen(function* () {
  const { body } = yield* signUp({ body: { email: "media@herald-customer.org" }, ip: "1.1.1.1" })
  const actor = yield* authenticateKey(body.apiKey!)
  yield* (yield* AccountRepo).upsert({
    id: "acc_s",
    workspaceId: actor.workspaceId,
    platform: "sandbox",
    name: "s",
    username: "s",
    avatarUrl: null,
    status: "connected",
    connectedAt: 0,
    externalId: "s"
  })
  return actor
})

// Small chunks, so the counter meets the limit in the middle of the body.
const chunked = (bytes: Uint8Array) =>
  Stream.fromIterable(
    Array.from({ length: Math.ceil(bytes.length / 1000) }, (_, i) => bytes.subarray(i * 1000, (i + 1) * 1000))
  )

describe("media use cases on the in-memory host", () => {
  it.effect(
    "the limit is inclusive: exactly maxBytes is stored, one byte less of allowance refuses and keeps nothing",
    () =>
      Effect.gen(function* () {
        const actor = yield* setUp
        const bytes = yield* png
        const refused = yield* Effect.flip(uploadMedia(actor, "a.png", chunked(bytes), bytes.length - 1))
        assert.strictEqual(refused.code, "file_too_large")
        assert.deepStrictEqual((yield* StoredBlobs).keys(), [])
        assert.strictEqual(yield* (yield* MediaRepo).countByWorkspace(actor.workspaceId), 0)
        const stored = yield* uploadMedia(actor, "C:\\fakepath\\a.png", chunked(bytes), bytes.length)
        assert.strictEqual(stored.media.sizeBytes, bytes.length)
        assert.strictEqual(stored.media.filename, "a.png")
        assert.strictEqual((yield* StoredBlobs).keys().length, 2)
      }).pipe(Effect.provide(TestHost.layer()))
  )

  it.effect("after 7 days: media_expired on use, and the sweeper removes bytes, preview and record", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(Date.parse("2026-11-21T00:00:00Z"))
      const actor = yield* setUp
      const { media } = yield* uploadMedia(actor, "a.png", Stream.make(yield* png), 1024 * 1024)
      assert.strictEqual(media.expiresAt, "2026-11-28T00:00:00.000Z")
      const ok = yield* createPost(
        actor,
        { accountIds: ["acc_s"], content: "fresh", mediaIds: [media.id], dryRun: true },
        null
      )
      assert.strictEqual(ok.kind, "dryRun")
      assert.strictEqual((yield* sweepExpiredMedia(100)).media, 0)

      yield* TestClock.adjust("7 days")
      const used = yield* Effect.flip(
        createPost(actor, { accountIds: ["acc_s"], content: "late", mediaIds: [media.id] }, null)
      )
      assert.strictEqual(used.code, "media_expired")
      assert.strictEqual((yield* Effect.flip(getPreview(actor, media.id))).code, "media_expired")

      const record = Option.getOrThrow(yield* (yield* MediaRepo).findById(actor.workspaceId, media.id))
      assert.deepStrictEqual(yield* sweepExpiredMedia(100), { media: 1, failed: 0 })
      assert.isTrue(Option.isNone(yield* (yield* MediaRepo).findById(actor.workspaceId, media.id)))
      const gone = yield* Effect.flip((yield* BlobStore).stat(record.blobKey))
      assert.strictEqual(gone._tag, "BlobNotFound")
      assert.deepStrictEqual((yield* StoredBlobs).keys(), [])
      const missing = yield* Effect.flip(
        createPost(actor, { accountIds: ["acc_s"], content: "gone", mediaIds: [media.id] }, null)
      )
      assert.strictEqual(missing.code, "media_not_found")
    }).pipe(Effect.provide(TestHost.layer()))
  )

  it.effect("a body that fails mid-way leaves nothing behind", () =>
    Effect.gen(function* () {
      const actor = yield* setUp
      const bytes = yield* Effect.promise(() =>
        sharp({
          create: {
            width: 600,
            height: 400,
            channels: 3,
            background: "#000",
            noise: { type: "gaussian", mean: 128, sigma: 50 }
          }
        })
          .png()
          .toBuffer()
      )
      // Past the sniffed head, so the blob store has started writing when the body breaks.
      const broken = Stream.concat(
        chunked(bytes.subarray(0, 300_000)),
        Stream.fail(invalidFields(["file"], "client went away"))
      )
      const error = yield* Effect.flip(uploadMedia(actor, "a.png", broken, 10 * 1024 * 1024))
      assert.strictEqual(error.detail, "client went away")
      assert.deepStrictEqual((yield* StoredBlobs).keys(), [])
      assert.strictEqual(yield* (yield* MediaRepo).countByWorkspace(actor.workspaceId), 0)
    }).pipe(Effect.provide(TestHost.layer()))
  )
})
