import type { Account } from "../../domain/account.ts"
import type { Account as AccountView } from "../../domain/contract/account.ts"
import { formatUtc } from "../../domain/time.ts"

/** An account as the API (and its events) show it. */
export const accountView = (a: Account): AccountView => ({
  id: a.id,
  platform: a.platform,
  name: a.name,
  username: a.username,
  avatarUrl: a.avatarUrl,
  status: a.status,
  connectedAt: formatUtc(a.connectedAt)
})
