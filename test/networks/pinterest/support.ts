import { Redacted } from "effect"
import type { PinterestConfig } from "../../../adapters/networks/pinterest/config.ts"
import * as Pinterest from "../../../adapters/networks/pinterest/adapter.ts"
import type { BlobStoreShape } from "../../../application/ports/BlobStore.ts"
import type { Connection, NetworkCredentials } from "../../../application/ports/Connectors.ts"
import type { Network } from "../../../application/ports/Network.ts"
import type { PublishRequest } from "../../../application/ports/Publishers.ts"
import type { Account } from "../../../domain/account.ts"
import * as Harness from "../shared/harness.ts"
import type { FakePinterest } from "./fakePinterest.ts"

export { authorize, publishedOf, publishThrough, setNow, T0 } from "../shared/harness.ts"

export const CALLBACK = Harness.callbackFor("pinterest")

export const settingsFor = (fake: FakePinterest): PinterestConfig => ({
  clientId: fake.clientId,
  clientSecret: Redacted.make(fake.clientSecret),
  authorizeUrl: fake.authorizeUrl,
  tokenUrl: fake.tokenUrl,
  apiUrl: fake.origin
})

export const pinterestOn = (fake: FakePinterest) =>
  Harness.onMemoryBlobs((blobs) => Pinterest.make(settingsFor(fake), blobs))

export const connect = (fake: FakePinterest, network: Network, as = "p-alice") => Harness.connectAs(fake, network, as)

export const accountOf = (connection: Connection) => Harness.accountOf("pinterest", "acc_pin", connection)

export const request = (account: Account, credentials: NetworkCredentials, fields: Partial<PublishRequest> = {}) =>
  Harness.publishRequest(account, credentials, { content: "Lemon tart, step by step", ...fields })

/** Pins are portrait: 2:3 images, 8 s videos. */
export const upload = (blobs: BlobStoreShape, type: "image" | "video", mimeType: string, bytes: number) =>
  Harness.upload(blobs, {
    type,
    mimeType,
    bytes,
    fields: () => ({ width: 600, height: 900, durationMs: type === "video" ? 8000 : null })
  })
