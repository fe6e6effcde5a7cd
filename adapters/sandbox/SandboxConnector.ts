import { Effect } from "effect"
import type { Connector } from "../../application/ports/Connectors.ts"

/** The built-in network: opening the URL connects an account at once, no OAuth. */
export const connector: Connector = {
  platform: "sandbox",
  authorizeUrl: (state, callbackUrl) => `${callbackUrl}?state=${encodeURIComponent(state)}`,
  complete: (params) =>
    Effect.sync(() => {
      const suffix = Math.random().toString(36).slice(2, 8)
      const username = (params.username ?? `sandbox_${suffix}`).replace(/[^A-Za-z0-9_.-]/g, "").slice(0, 30) || `sandbox_${suffix}`
      return { externalId: `sandbox:${username}:${suffix}`, name: params.name?.slice(0, 100) || "Sandbox account", username, avatarUrl: null }
    })
}
