import type { Platform } from "./platforms.ts"

export type AccountStatus = "connected" | "needs_reconnection"

export interface Account {
  readonly id: string
  readonly workspaceId: string
  readonly platform: Platform
  readonly name: string
  readonly username: string
  readonly avatarUrl: string | null
  readonly status: AccountStatus
  readonly connectedAt: number
  /** Network-side id of the account (user id, page id, DID...). */
  readonly externalId: string
}
