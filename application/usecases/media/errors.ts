import { Effect } from "effect"
import { fail, type HeraldError } from "../../../domain/errors.ts"
import type { BlobError } from "../../ports/BlobStore.ts"

/** Storage trouble as the caller sees it: 502/503, retryable; the provider's own words go to the log only. */
export const storageFailure = (error: BlobError): Effect.Effect<never, HeraldError> =>
  Effect.logWarning("Blob storage failed", { reason: error.reason, unavailable: error.unavailable }).pipe(
    Effect.andThen(
      Effect.fail(
        error.unavailable
          ? fail("upstream_storage_unavailable", { retryAfterSeconds: 5 })
          : fail("upstream_storage_failed")
      )
    )
  )
