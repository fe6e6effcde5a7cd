import { Effect } from "effect"
import type { Connector } from "../../../application/ports/Connectors.ts"

/** The built-in network: opening the URL connects an account at once, no OAuth and no credentials. */
export const connector: Connector = {
  platform: "sandbox",
  begin: ({ state, callbackUrl }) =>
    Effect.succeed({ url: `${callbackUrl}?state=${encodeURIComponent(state)}`, verifier: null }),
  complete: ({ params }) =>
    Effect.sync(() => {
      const suffix = Math.random().toString(36).slice(2, 8)
      const username =
        (params.username ?? `sandbox_${suffix}`).replace(/[^A-Za-z0-9_.-]/g, "").slice(0, 30) || `sandbox_${suffix}`
      const profile = {
        externalId: `sandbox:${username}:${suffix}`,
        name: params.name || "Sandbox account",
        username,
        avatarUrl: null
      }
      return [{ profile, credentials: null }]
    })
}
