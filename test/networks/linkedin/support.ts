import { Effect, Redacted } from "effect"
import type { LinkedInConfig } from "../../../adapters/networks/linkedin/config.ts"
import * as LinkedIn from "../../../adapters/networks/linkedin/adapter.ts"
import type { BlobStoreShape } from "../../../application/ports/BlobStore.ts"
import type { Connection, NetworkCredentials } from "../../../application/ports/Connectors.ts"
import type { Network } from "../../../application/ports/Network.ts"
import type { PublishRequest } from "../../../application/ports/Publishers.ts"
import type { Account } from "../../../domain/account.ts"
import * as Harness from "../shared/harness.ts"
import type { FakeLinkedIn } from "./fakeLinkedIn.ts"

export { authorize, publishedOf, publishThrough, setNow, T0 } from "../shared/harness.ts"

export const CALLBACK = Harness.callbackFor("linkedin")

/** LinkedIn's settings pointing every host at the fake. */
export const settingsFor = (fake: FakeLinkedIn, over: Partial<LinkedInConfig> = {}): LinkedInConfig => ({
  clientId: fake.clientId,
  clientSecret: Redacted.make(fake.clientSecret),
  authorizeUrl: fake.authorizeUrl,
  tokenUrl: fake.tokenUrl,
  apiUrl: fake.origin,
  version: "202607",
  organizations: true,
  ...over
})

export const linkedInOn = (fake: FakeLinkedIn, over: Partial<LinkedInConfig> = {}) =>
  Harness.onMemoryBlobs((blobs) => LinkedIn.make(settingsFor(fake, over), blobs))

/** Connects the fake's approving member through the connector: the member, then the pages. */
export const connect = (network: Network, state = "state-1") => Harness.connectAll(network, state)

export const accountOf = (connection: Connection) =>
  Harness.accountOf("linkedin", `acc_${connection.profile.externalId.split(":").at(-1)}`, connection)

export const request = (account: Account, credentials: NetworkCredentials, fields: Partial<PublishRequest> = {}) =>
  Harness.publishRequest(account, credentials, fields)

export const upload = (blobs: BlobStoreShape, type: "image" | "video", mimeType: string, bytes: number) =>
  Effect.map(Harness.upload(blobs, { type, mimeType, bytes }), ({ media }) => media)
