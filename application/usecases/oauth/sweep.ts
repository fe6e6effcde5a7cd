import { Effect } from "effect"
import { OAuthStore } from "../../ports/OAuthStore.ts"
import { now } from "../common.ts"

/** Deletes expired authorization codes and OAuth tokens (a used refresh token stays until its expiry: a replay is recognised). */
export const sweepOAuth = Effect.fn("sweepOAuth")(function* (batch: number) {
  return { tokens: yield* (yield* OAuthStore).sweep(yield* now, batch) }
})
