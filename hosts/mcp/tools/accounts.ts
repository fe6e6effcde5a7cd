import { Effect, Schema } from "effect"
import { disconnectAccount, listAccounts } from "../../../application/usecases/accounts.ts"
import { connectUrl } from "../../../application/usecases/connectLink.ts"
import { listBoards } from "../../../application/usecases/boards.ts"
import { requestClaimLink } from "../../../application/usecases/claim.ts"
import { signUp } from "../../../application/usecases/signup.ts"
import { AccountList, BoardList, ConnectLink, DisconnectedAccount } from "../../../domain/contract/account.ts"
import { ClaimLink, SignUpRequest, SignUpResponse } from "../../../domain/contract/signup.ts"
import { planLimits } from "../../../domain/workspace.ts"
import { keylessTool, tool } from "../tool.ts"
import { networks } from "../../networks.ts"

const freePosts = planLimits.free.postsPerMonth

export const signUpTool = keylessTool({
  name: "sign_up",
  title: "Sign up: create a Free workspace for your human",
  description: [
    "Use only when you have no Herald API key. Creates a Free workspace owned by your human and an API key for you,",
    "and e-mails the human a link to claim the workspace. The key (apiKey) is shown ONCE: keep it and use it for every other tool",
    "(over HTTP: send it as Authorization: Bearer <apiKey>; over stdio it is used for the rest of this session).",
    "The key is asks-first: every post you create waits until the human approves it in the Herald app, and nothing is",
    "published before the human claims the workspace (unclaimed workspaces are deleted after 7 days).",
    `Free workspaces may publish ${freePosts} posts a month. Tell the human the 'delivery' sentence and follow 'next'.`,
    "If the address already owns a workspace, nothing is created (created: false, apiKey null): the human signs in and makes a key for you."
  ].join(" "),
  input: SignUpRequest,
  output: Schema.Struct({
    created: Schema.Boolean.annotate({ description: "false when the address already had a workspace" }),
    ...SignUpResponse.fields
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  run: (args, call) =>
    Effect.map(signUp({ body: args, ip: call.ip, acceptLanguage: call.acceptLanguage }), (result) => ({
      created: result.status === 201,
      ...result.body
    }))
})

export const requestClaimLinkTool = tool({
  name: "request_claim_link",
  title: "E-mail the owner a fresh claim link",
  description:
    "For an unclaimed workspace: e-mails the human owner a new link to claim it (earlier links stop working). The link goes only to the owner's inbox, never to you. " +
    "Rate limited; already claimed workspaces give already_claimed.",
  input: Schema.Struct({}),
  output: ClaimLink,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  run: (_args, call) => requestClaimLink(call.actor)
})

export const listAccountsTool = tool({
  name: "list_accounts",
  title: "List connected social accounts",
  description:
    "The social accounts connected to this workspace, with the ids create_post needs in accountIds. " +
    "An empty list means none is connected yet: use connect_account. An account with status needs_reconnection must be connected again before it can post.",
  input: Schema.Struct({}),
  output: AccountList,
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: (_args, call) => listAccounts(call.actor)
})

export const connectAccountTool = tool({
  name: "connect_account",
  title: "Get a link that connects a social account",
  description: [
    "Returns a URL that connects an account of the given network to this workspace when opened in a browser: give it to the person, whose browser shows Herald's page naming this workspace and this key, then the network's.",
    "For a real network, give the URL to your human: they log in to the network and approve; then call list_accounts to get the new account's id.",
    "Start with platform 'sandbox': Herald's built-in test network, always available. Opening its URL (a plain GET; you may fetch it yourself)",
    "connects a sandbox account at once, with no login, and posts to it are 'published' inside Herald, so you can try the whole flow safely.",
    "Content containing #fail makes a sandbox publish fail, to see how failures look. The URL expires after an hour and works once.",
    "An unavailable network gives platform_unavailable with details.available listing those this server offers."
  ].join(" "),
  input: Schema.Struct({
    platform: Schema.String.annotate({
      description: `Network, one of (what this server offers): ${networks.map((n) => `${n.platform} (${n.describe})`).join("; ")}`
    }),
    instance: Schema.optional(
      Schema.String.annotate({
        description:
          "Mastodon only: the account's instance (mastodon.social, a URL, or @alice@mastodon.social); without it the URL asks the person"
      })
    )
  }),
  output: ConnectLink,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  run: (args, call) =>
    connectUrl(call.actor, args.platform, args.instance === undefined ? {} : { instance: args.instance })
})

export const listBoardsTool = tool({
  name: "list_boards",
  title: "List where a Pinterest or Reddit account posts",
  description:
    "The boards a connected Pinterest account can pin to, read from Pinterest. Put a board's id in create_post's pinterest.boardId; " +
    "without one a pin goes to the account's first board. For a Reddit account: the subreddits it moderates, is an approved user of, " +
    "or subscribes to; put one's id in create_post's reddit.subreddit (any public subreddit takes posts too). Other networks give boards_unsupported.",
  input: Schema.Struct({
    accountId: Schema.String.annotate({ description: "A Pinterest or Reddit account id from list_accounts" })
  }),
  output: BoardList,
  annotations: { readOnlyHint: true, openWorldHint: true },
  run: (args, call) => listBoards(call.actor, args.accountId)
})

export const disconnectAccountTool = tool({
  name: "disconnect_account",
  title: "Disconnect a social account",
  description:
    "Removes a connected account from this workspace: its stored credentials are deleted and Herald stops posting to it. " +
    "Its posts still waiting (scheduled or needing approval) fail with account_disconnected. Connecting the same network account again later gives it a new id. " +
    "An id not in this workspace gives account_not_found.",
  input: Schema.Struct({ accountId: Schema.String.annotate({ description: "An account id from list_accounts" }) }),
  output: DisconnectedAccount,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  run: (args, call) => disconnectAccount(call.actor, args.accountId)
})
