import { Schema } from "effect"
import { Platform } from "./post.ts"
import { Time } from "./postParts.ts"

// Connected accounts, connect links and boards (Pinterest's boards, Reddit's subreddits) as the API, MCP and events show them.

const Str = Schema.String

export const Account = Schema.Struct({
  id: Str.annotate({ description: "Use it in a post's accountIds" }),
  platform: Platform,
  name: Str,
  username: Str,
  avatarUrl: Schema.NullOr(Str),
  status: Schema.Literals(["connected", "needs_reconnection"]),
  connectedAt: Time
}).annotate({ identifier: "Account" })
export type Account = typeof Account.Type

export const AccountList = Schema.Struct({ accounts: Schema.Array(Account) }).annotate({ identifier: "AccountList" })

export const ConnectLink = Schema.Struct({
  url: Str.annotate({
    description:
      "Open it in a browser to connect (or reconnect) an account: Herald's page names the workspace and who asked, and its Continue button leads to the network; only that browser completes the link"
  }),
  platform: Platform,
  expiresAt: Time
}).annotate({ identifier: "ConnectLink" })
export type ConnectLink = typeof ConnectLink.Type

export const DisconnectedAccount = Schema.Struct({ id: Str, disconnected: Schema.Literal(true) }).annotate({
  identifier: "DisconnectedAccount"
})

export const Board = Schema.Struct({
  id: Str,
  name: Str,
  description: Schema.NullOr(Str),
  privacy: Schema.NullOr(Str)
}).annotate({ identifier: "Board" })
export type Board = typeof Board.Type

export const BoardList = Schema.Struct({ boards: Schema.Array(Board) }).annotate({ identifier: "BoardList" })

/** The networks this Herald connects (those configured): GET /connect/{platform} for each. */
export const NetworkList = Schema.Struct({
  networks: Schema.Array(Schema.Struct({ platform: Str, name: Str }).annotate({ identifier: "Network" }))
}).annotate({ identifier: "NetworkList" })
