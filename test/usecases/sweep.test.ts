import { assert, describe, it } from "@effect/vitest"
import { Effect, Stream } from "effect"
import { TestClock } from "effect/testing"
import sharp from "sharp"
import { StoredBlobs } from "../../adapters/memory/MemoryBlobStore.ts"
import { authenticateKey } from "../../application/usecases/auth.ts"
import { uploadMedia } from "../../application/usecases/media/upload.ts"
import { signUp } from "../../application/usecases/signup.ts"
import { sweepExpired } from "../../application/usecases/sweep.ts"
import * as TestHost from "../../hosts/test/TestHost.ts"

describe("sweeping an expired unclaimed workspace", () => {
  it.effect("removes its uploads' bytes and previews too, not only the records", () =>
    Effect.gen(function* () {
      const { body } = yield* signUp({ body: { email: "sweep@herald-customer.org" }, ip: "1.1.1.1" })
      const actor = yield* authenticateKey(body.apiKey!)
      const png = yield* Effect.promise(() =>
        sharp({ create: { width: 64, height: 48, channels: 3, background: "#36c" } })
          .png()
          .toBuffer()
      )
      for (let i = 0; i < 2; i++) yield* uploadMedia(actor, `p${i}.png`, Stream.make(new Uint8Array(png)), 1_000_000)
      const blobs = yield* StoredBlobs
      assert.isAtLeast(blobs.keys().length, 2)
      yield* TestClock.adjust("6 days")
      assert.strictEqual((yield* sweepExpired(10)).workspaces, 0)
      yield* TestClock.adjust("1 day")
      assert.strictEqual((yield* sweepExpired(10)).workspaces, 1)
      assert.deepStrictEqual(blobs.keys(), [])
    }).pipe(Effect.provide(TestHost.layer()))
  )
})
