import { Effect, Redacted } from "effect"
import * as X from "../../../adapters/networks/x/adapter.ts"
import type { XConfig } from "../../../adapters/networks/x/config.ts"
import type { BlobStoreShape } from "../../../application/ports/BlobStore.ts"
import type { NetworkCredentials } from "../../../application/ports/Connectors.ts"
import type { Network } from "../../../application/ports/Network.ts"
import type { PublishRequest } from "../../../application/ports/Publishers.ts"
import type { Account } from "../../../domain/account.ts"
import * as Harness from "../shared/harness.ts"
import type { FakeX } from "./fakeX.ts"

export { authorize, publishedOf, setNow, T0 } from "../shared/harness.ts"

export const CALLBACK = Harness.callbackFor("x")

/** X's settings pointing every host at the fake. */
export const settingsFor = (fake: FakeX): XConfig => ({
  clientId: fake.clientId,
  clientSecret: Redacted.make(fake.clientSecret),
  authorizeUrl: fake.authorizeUrl,
  tokenUrl: fake.tokenUrl,
  apiUrl: fake.origin,
  uploadUrl: fake.origin
})

export const xOn = (fake: FakeX) => Harness.onMemoryBlobs((blobs) => X.make(settingsFor(fake), blobs))

/** Connects the fake's approving user through the connector (X's connect starts from a form). */
export const connect = (network: Network, state = "state-1") =>
  Effect.map(Harness.connectAll(network, state, "http://herald.test/connect/x/form"), ([connection]) => connection)

export const account = (externalId = "1001", username = "alice"): Account =>
  Harness.connectedAccount({ id: "acc_x1", platform: "x", name: "Alice Example", username, externalId })

export const request = (credentials: NetworkCredentials, fields: Partial<PublishRequest> = {}) =>
  Harness.publishRequest(account(), credentials, fields)

export const upload = (blobs: BlobStoreShape, type: "image" | "video", mimeType: string, bytes: number) =>
  Effect.map(Harness.upload(blobs, { type, mimeType, bytes }), ({ media }) => media)
