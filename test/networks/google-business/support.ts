import { Effect, Redacted } from "effect"
import type { GoogleBusinessConfig } from "../../../adapters/networks/google-business/config.ts"
import * as GoogleBusiness from "../../../adapters/networks/google-business/adapter.ts"
import type { BlobStoreShape } from "../../../application/ports/BlobStore.ts"
import type { Connection, NetworkCredentials } from "../../../application/ports/Connectors.ts"
import type { PublishRequest } from "../../../application/ports/Publishers.ts"
import type { Account } from "../../../domain/account.ts"
import * as Harness from "../shared/harness.ts"
import type { FakeGoogleBusiness } from "./fakeGoogleBusiness.ts"

export { authorize, publishedOf, setNow, T0 } from "../shared/harness.ts"

export const CALLBACK = Harness.callbackFor("google_business")

export const settingsFor = (fake: FakeGoogleBusiness): GoogleBusinessConfig => ({
  clientId: fake.clientId,
  clientSecret: Redacted.make(fake.clientSecret),
  authorizeUrl: fake.authorizeUrl,
  tokenUrl: fake.tokenUrl,
  accountsUrl: fake.origin,
  locationsUrl: fake.origin,
  postsUrl: fake.origin,
  languageCode: "en"
})

/** The network with its images on a memory store whose signed links a local server answers (Google fetches them). */
export const businessOn = (fake: FakeGoogleBusiness, blobs: BlobStoreShape) =>
  GoogleBusiness.make(settingsFor(fake), blobs)

export const accountOf = (connection: Connection) => Harness.accountOf("google_business", "acc_gbp", connection)

export const request = (account: Account, credentials: NetworkCredentials, fields: Partial<PublishRequest> = {}) =>
  Harness.publishRequest(account, credentials, { content: "Fresh croissants every morning from 7.", ...fields })

/** The v4 local posts of Alice's Paris bakery. */
export const POSTS = "/v4/accounts/1110001/locations/9001/localPosts"

let day = 0
/** Alice's Paris bakery, connected on a day of its own (each test its own rate gate and review settings). */
export const connectParis = (fake: FakeGoogleBusiness, blobs: BlobStoreShape) =>
  Effect.gen(function* () {
    yield* Harness.setNow(fake, Harness.T0 + ++day * 86_400_000)
    Object.assign(fake.state, { authorizeAs: "g-alice", reviewReads: 0, rejectNext: false, pageSize: 100 })
    const network = businessOn(fake, blobs)
    const [paris] = yield* Harness.connectAll(network)
    return { network, publisher: network.publisher, credentials: paris.credentials!, account: accountOf(paris) }
  })
