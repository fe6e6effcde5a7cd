import { Context, type Effect, Schema } from "effect"

/** A sealed text that cannot be opened with the secrets this server has (the secret changed without rotation). */
export class VaultSealBroken extends Schema.TaggedError<VaultSealBroken>()("VaultSealBroken", {
  message: Schema.String
}) {}

/**
 * Encryption of network tokens at rest (AES-256-GCM under HERALD_SECRET). What is sealed names the
 * key that sealed it, so a previous secret can still open it while everything is sealed anew.
 */
export interface TokenVaultShape {
  readonly seal: (plain: string) => Effect.Effect<string>
  readonly open: (sealed: string) => Effect.Effect<string, VaultSealBroken>
}

export class TokenVault extends Context.Service<TokenVault, TokenVaultShape>()("herald/TokenVault") {}
