import { Effect } from "effect"
import type { Account } from "../../domain/account.ts"
import type { Actor } from "../../domain/apiKey.ts"
import { approvalVersion, previewOn } from "../../domain/approval.ts"
import { contentFor } from "../../domain/overrides.ts"
import type { Post, Target } from "../../domain/post.ts"
import { AccountRepo } from "../ports/AccountRepo.ts"
import { PostRepo } from "../ports/PostRepo.ts"
import { requirePerson } from "./common.ts"
import { postView } from "./posts/view.ts"

/** How one target network will show the post: each text as that network counts and cuts it. */
const onNetwork = (post: Post, target: Target, account: Account | undefined) => ({
  accountId: target.accountId,
  platform: target.platform,
  accountName: account?.name ?? null,
  username: account?.username ?? null,
  accountStatus: account?.status ?? null,
  // What this network gets: the post with its override for the network applied.
  ...previewOn(contentFor(post, target.platform), post.poll, target.platform)
})

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
