import { Effect, Redacted } from "effect"
import * as Reddit from "../../../adapters/networks/reddit/adapter.ts"
import type { RedditConfig } from "../../../adapters/networks/reddit/config.ts"
import type { BlobStoreShape } from "../../../application/ports/BlobStore.ts"
import type { Connection, NetworkCredentials } from "../../../application/ports/Connectors.ts"
import type { Network } from "../../../application/ports/Network.ts"
import type { PublishRequest } from "../../../application/ports/Publishers.ts"
import type { RedditOptions } from "../../../domain/contract/postRequest.ts"
import type { Account } from "../../../domain/account.ts"
import * as Harness from "../shared/harness.ts"
import type { FakeReddit } from "./fakeReddit.ts"

export { authorize, publishedOf, processingOf, publishThrough, setNow, T0 } from "../shared/harness.ts"

export const CALLBACK = Harness.callbackFor("reddit")

export const settingsFor = (fake: FakeReddit): RedditConfig => ({
  clientId: fake.clientId,
  clientSecret: Redacted.make(fake.clientSecret),
  authorizeUrl: fake.authorizeUrl,
  tokenUrl: fake.tokenUrl,
  apiUrl: fake.origin,
  userAgent: fake.userAgent
})

export const redditOn = (fake: FakeReddit) => Harness.onMemoryBlobs((blobs) => Reddit.make(settingsFor(fake), blobs))

export const connect = (fake: FakeReddit, network: Network, as = "alice") => Harness.connectAs(fake, network, as)

export const accountOf = (connection: Connection) => Harness.accountOf("reddit", "acc_rd", connection)

/** A post to r/HeraldTest unless `reddit` says otherwise. */
export const request = (
  account: Account,
  credentials: NetworkCredentials,
  reddit: Partial<RedditOptions> = {},
  fields: Partial<PublishRequest> = {}
) =>
  Harness.publishRequest(account, credentials, {
    content: "Sourdough, day three\nThe starter finally doubled overnight.",
    options: { reddit: { subreddit: "HeraldTest", ...reddit } },
    ...fields
  })

export const upload = (blobs: BlobStoreShape, mimeType: string, bytes: number) =>
  Harness.upload(blobs, { type: "image", mimeType, bytes })

/** A fresh network and `as` connected on day `day` after T0 (each test its own day: tokens last one). */
export const connectedOn = (fake: FakeReddit, day: number, as = "alice") =>
  Effect.gen(function* () {
    yield* Harness.setNow(fake, Harness.T0 + day * 86_400_000)
    const { network, blobs } = yield* redditOn(fake)
    const connection = yield* connect(fake, network, as)
    return {
      network,
      blobs,
      publisher: network.publisher,
      credentials: connection.credentials!,
      account: accountOf(connection)
    }
  })
