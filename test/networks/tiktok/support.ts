import { Effect, Redacted } from "effect"
import sharp from "sharp"
import * as HmacFileLinks from "../../../adapters/crypto/HmacFileLinks.ts"
import type { TikTokConfig } from "../../../adapters/networks/tiktok/config.ts"
import * as TikTok from "../../../adapters/networks/tiktok/adapter.ts"
import type { BlobStoreShape } from "../../../application/ports/BlobStore.ts"
import type { Connection, NetworkCredentials } from "../../../application/ports/Connectors.ts"
import type { Network } from "../../../application/ports/Network.ts"
import type { PublishRequest } from "../../../application/ports/Publishers.ts"
import type { Account } from "../../../domain/account.ts"
import * as Harness from "../shared/harness.ts"
import type { FakeTikTok } from "./fakeTikTok.ts"

export { authorize, publishedOf, publishThrough, setNow, T0 } from "../shared/harness.ts"

export const CALLBACK = Harness.callbackFor("tiktok")
export const MB5 = 5 * 1024 * 1024

export const settingsFor = (fake: FakeTikTok, over: Partial<TikTokConfig> = {}): TikTokConfig => ({
  clientKey: fake.clientKey,
  clientSecret: Redacted.make(fake.clientSecret),
  authorizeUrl: fake.authorizeUrl,
  tokenUrl: fake.tokenUrl,
  apiUrl: fake.origin,
  chunkBytes: MB5,
  ...over
})

/** TikTok pulls photos from URLs: blobs a local server answers, under a prefix the fake counts as verified. */
export const tiktokOn = (fake: FakeTikTok, over: Partial<TikTokConfig> = {}) =>
  Effect.gen(function* () {
    const { blobs, origin } = yield* Effect.acquireRelease(
      Effect.promise(() => Harness.serveBlobs(HmacFileLinks.make("test"))),
      (served) => Effect.promise(served.close)
    )
    fake.state.verifiedPrefixes = [`${origin}/files/`]
    return { network: TikTok.make(settingsFor(fake, over), blobs), blobs }
  })

export const connect = (fake: FakeTikTok, network: Network, as = "u-alice") => Harness.connectAs(fake, network, as)

export const accountOf = (connection: Connection) => Harness.accountOf("tiktok", "acc_tt", connection)

export const request = (account: Account, credentials: NetworkCredentials, fields: Partial<PublishRequest> = {}) =>
  Harness.publishRequest(account, credentials, { content: "New video #herald", ...fields })

/** A portrait video (and its SHA-256). */
export const video = (blobs: BlobStoreShape, bytes: number, durationMs = 20_000) =>
  Harness.upload(blobs, {
    type: "video",
    mimeType: "video/mp4",
    bytes,
    fields: (n) => ({
      id: `med_v${n}`,
      blobKey: `media/v${n}`,
      filename: "v.mp4",
      width: 1080,
      height: 1920,
      durationMs
    })
  })

/** A real (decodable) portrait image, since TikTok fetches and checks photos. */
export const photo = (blobs: BlobStoreShape, format: "jpeg" | "png" = "jpeg") =>
  Effect.gen(function* () {
    const bytes = yield* Effect.promise(() =>
      sharp({ create: { width: 108, height: 192, channels: 3, background: "#3a7" } })
        [format]()
        .toBuffer()
    )
    const { media } = yield* Harness.upload(blobs, {
      type: "image",
      mimeType: `image/${format}`,
      bytes: new Uint8Array(bytes),
      fields: (n) => ({
        id: `med_p${n}`,
        blobKey: `media/p${n}.${format}`,
        filename: `p.${format}`,
        width: 108,
        height: 192
      })
    })
    return media
  })
