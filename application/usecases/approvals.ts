import { Effect } from "effect"
import type { Account } from "../../domain/account.ts"
import type { Actor } from "../../domain/apiKey.ts"
import { approvalVersion, textOnNetwork } from "../../domain/approval.ts"
import { networkRules } from "../../domain/networkRules.ts"
import { contentFor } from "../../domain/overrides.ts"
import type { Post, Target } from "../../domain/post.ts"
import { AccountRepo } from "../ports/AccountRepo.ts"
import { PostRepo } from "../ports/PostRepo.ts"
import { requirePerson } from "./common.ts"
import { postView } from "./posts/view.ts"

/** How one target network will show the post: each text as that network counts and cuts it. */
const onNetwork = (post: Post, target: Target, account: Account | undefined) => {
  const rules = networkRules[target.platform]
  // What this network gets: the post with its override for the network applied.
  const final = contentFor(post, target.platform)
  return {
    accountId: target.accountId,
    platform: target.platform,
    accountName: account?.name ?? null,
    username: account?.username ?? null,
    accountStatus: account?.status ?? null,
    text: textOnNetwork(final.content, target.platform),
    mediaIds: final.mediaIds,
    // Replies a network does not take are not shown for it (the post was checked against its rules when made).
    thread: rules.maxThreadReplies > 0 ? final.thread.map((reply) => textOnNetwork(reply, target.platform)) : [],
    firstComment:
      rules.firstComment && final.firstComment !== null
        ? textOnNetwork(final.firstComment, target.platform, rules.firstCommentLimit)
        : null,
    poll: rules.poll !== null ? post.poll : null,
    maxImages: rules.maxImages
  }
}

/** One waiting post as the approval page shows it: the post, the version it is approved at, and its view on each network. */
export const approvalItem = (post: Post, accounts: ReadonlyArray<Account>) => ({
  post: postView(post),
  version: approvalVersion(post),
  networks: post.targets.map((t) =>
    onNetwork(
      post,
      t,
      accounts.find((a) => a.id === t.accountId)
    )
  )
})

export type ApprovalItem = ReturnType<typeof approvalItem>

/** The approval queue of a signed-in person: every post waiting for a yes, oldest first (the first asked is the first answered). */
export const approvalQueue = Effect.fn("approvalQueue")(function* (actor: Actor) {
  const person = yield* requirePerson(actor)
  const waiting = yield* (yield* PostRepo).list(person.workspaceId, { status: "needs_approval", limit: 100 })
  const accounts = yield* (yield* AccountRepo).listByWorkspace(person.workspaceId)
  return { items: [...waiting].reverse().map((post) => approvalItem(post, accounts)) }
})
