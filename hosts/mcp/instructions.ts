import { MCP_UPLOAD_LIMIT } from "../../application/usecases/media/index.ts"
import { MEDIA_LIFETIME_MS } from "../../domain/media.ts"
import { DAY_MS } from "../../domain/time.ts"
import { planLimits } from "../../domain/workspace.ts"
import { networks } from "../networks.ts"

/** What an agent must know before its first call; MCP clients show it as the server's instructions. */
export const instructions = [
  `Herald publishes posts to a workspace's connected social accounts (${networks
    .filter((n) => n.platform !== "sandbox")
    .map((n) => n.label)
    .join(", ")}, and the built-in 'sandbox' test network).`,
  "1. Key: every tool except sign_up needs an API key. Without one, call sign_up with your human's e-mail address; it returns a key for you and e-mails the human a claim link.",
  "2. Approval: keys from sign_up are asks-first. Every post you create waits in needs_approval until the human approves it in the Herald app, and nothing is published before the human claims the workspace. Tell the human what you posted and that it awaits their approval.",
  "3. Accounts: list_accounts gives the ids to post to. With none, connect_account returns a URL: try platform 'sandbox' first (opening the URL connects at once, no login); real networks need the human to open the URL and log in.",
  `4. Media: upload_media takes files up to ${MCP_UPLOAD_LIMIT / (1024 * 1024)} MB; get_media_preview shows what you uploaded; uploads expire after ${MEDIA_LIFETIME_MS / DAY_MS} days.`,
  `5. Posting: create_post with dryRun: true checks a post for free. Free workspaces may create ${planLimits.free.postsPerMonth} posts a month. Pass an idempotencyKey so a retry never posts twice.`,
  "Errors come back as tool errors whose text is {error: {code, message, hint, retryable, details}}: switch on code, follow hint, retry only when retryable."
].join("\n")
