import { Redacted } from "effect"
import type { YouTubeConfig } from "../../../adapters/networks/youtube/config.ts"
import * as YouTube from "../../../adapters/networks/youtube/adapter.ts"
import type { BlobStoreShape } from "../../../application/ports/BlobStore.ts"
import type { Connection, NetworkCredentials } from "../../../application/ports/Connectors.ts"
import type { Network } from "../../../application/ports/Network.ts"
import type { PublishRequest } from "../../../application/ports/Publishers.ts"
import type { Account } from "../../../domain/account.ts"
import * as Harness from "../shared/harness.ts"
import type { FakeYouTube } from "./fakeYouTube.ts"

export { authorize, publishedOf, publishThrough, setNow, T0 } from "../shared/harness.ts"

export const CALLBACK = Harness.callbackFor("youtube")
export const CHUNK = 256 * 1024

export const settingsFor = (fake: FakeYouTube, over: Partial<YouTubeConfig> = {}): YouTubeConfig => ({
  clientId: fake.clientId,
  clientSecret: Redacted.make(fake.clientSecret),
  authorizeUrl: fake.authorizeUrl,
  tokenUrl: fake.tokenUrl,
  apiUrl: fake.origin,
  uploadUrl: fake.origin,
  chunkBytes: CHUNK,
  dailyUploads: 100,
  dailyUnits: 10_000,
  ...over
})

export const youTubeOn = (fake: FakeYouTube, over: Partial<YouTubeConfig> = {}) =>
  Harness.onMemoryBlobs((blobs) => YouTube.make(settingsFor(fake, over), blobs))

export const connect = (fake: FakeYouTube, network: Network, as = "g-alice") => Harness.connectAs(fake, network, as)

export const accountOf = (connection: Connection) => Harness.accountOf("youtube", "acc_yt", connection)

export const request = (account: Account, credentials: NetworkCredentials, fields: Partial<PublishRequest> = {}) =>
  Harness.publishRequest(account, credentials, { content: "My first video\nA longer description <3", ...fields })

/** The Media and the bytes' SHA-256 (to compare with what YouTube got); in pieces smaller than a chunk, so the adapter has to gather them. */
export const upload = (blobs: BlobStoreShape, type: "image" | "video", mimeType: string, bytes: number) =>
  Harness.upload(blobs, { type, mimeType, bytes, pieceBytes: 100_000, fields: (n) => ({ filename: `clip${n}.mp4` }) })
