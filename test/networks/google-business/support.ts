import { Redacted } from "effect"
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
