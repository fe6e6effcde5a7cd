import { Effect, Result } from "effect"
import type { Actor } from "../../../domain/apiKey.ts"
import { previewOn, textOnNetwork } from "../../../domain/approval.ts"
import type { CreatePostBody } from "../../../domain/contract/postRequest.ts"
import type { DryRunResult } from "../../../domain/contract/dryRun.ts"
import { type HeraldError, toEnvelope } from "../../../domain/errors.ts"
import { contentFor } from "../../../domain/overrides.ts"
import { isPlatform } from "../../../domain/platforms.ts"
import { readCache } from "../../readCache.ts"
import { requirePerson } from "../common.ts"
import { createPost } from "./create.ts"

/** A refusal as the composer shows it: the envelope's code, message and particulars. */
const refusal = (error: HeraldError) => {
  const { code, message, details } = toEnvelope(error).body.error
  return { code, message, details: details ?? {} }
}
type Refusal = ReturnType<typeof refusal>

const dryRun = (actor: Actor, body: CreatePostBody) =>
  Effect.result(createPost(actor, { ...body, dryRun: true }, null)).pipe(
    Effect.map((outcome) =>
      Result.isFailure(outcome)
        ? { ok: false as const, error: refusal(outcome.failure) }
        : { ok: true as const, result: outcome.success.body as DryRunResult }
    )
  )

/** How the post as written will read on one network: the approval card's view, from the request (blanks as none). */
const previewFor = (body: CreatePostBody, platform: string) => {
  if (!isPlatform(platform)) return null
  const blankAsNull = (text: string | null | undefined) => (text == null || text.trim() === "" ? null : text)
  const single = body.mediaId == null ? [] : [body.mediaId]
  const firstReply = blankAsNull(body.firstReply)
  const written = {
    content: body.content ?? "",
    mediaIds: body.mediaIds ?? single,
    thread: (body.thread ?? (firstReply === null ? [] : [firstReply])).filter((reply) => reply.trim() !== ""),
    firstComment: blankAsNull(body.firstComment),
    overrides: body.overrides ?? {}
  }
  const poll =
    body.poll == null
      ? null
      : {
          options: body.poll.options,
          durationMinutes: body.poll.durationMinutes,
          ...(body.poll.question == null ? {} : { question: body.poll.question })
        }
  return previewOn(contentFor(written, platform), poll, platform)
}

/** A refusal that names one account (or several, among them this one) is that target's own. */
const namesAccount = (error: Refusal, accountId: string) =>
  error.details.accountId === accountId ||
  (Array.isArray(error.details.accountIds) && error.details.accountIds.includes(accountId))

/**
 * The composer's live advice: the dry run of the whole post (the same use case as POST /posts with
 * dryRun), and when it is refused, each target's own dry run, so every target says ok, its warnings
 * or its refusal, with its length by its network's counting even when it is over the limit.
 */
export const composeAdvice = Effect.fn("composeAdvice")(function* (actor: Actor, body: CreatePostBody) {
  yield* requirePerson(actor)
  const whole = yield* dryRun(actor, body)
  if (whole.ok) {
    const result = whole.result
    const own = new Set(result.targets.flatMap((t) => t.warnings))
    return {
      valid: result.valid,
      error: null,
      warnings: result.warnings.filter((w) => !own.has(w)),
      requireApproval: result.requireApproval,
      planned: result.planned ?? null,
      targets: result.targets.map((t) => ({
        accountId: t.accountId,
        platform: t.platform,
        username: t.username,
        ok: true,
        length: t.length,
        warnings: t.warnings,
        error: null,
        preview: previewFor(body, t.platform)
      }))
    }
  }
  const accounts = yield* (yield* readCache).accounts(actor.workspaceId)
  const known = body.accountIds.flatMap((id) => accounts.filter((a) => a.id === id))
  const each = yield* Effect.forEach(known, (account) => dryRun(actor, { ...body, accountIds: [account.id] }), {
    concurrency: 4
  })
  const postError = whole.error
  // The whole post's refusal is said once, by its field, unless it is one target's (then it is said there).
  const postWide = !known.some((a) => namesAccount(postError, a.id))
  return {
    valid: false,
    error: postWide ? postError : null,
    warnings: [],
    requireApproval: null,
    planned: null,
    targets: known.map((account, i) => {
      const outcome = each[i]!
      const text = body.overrides?.[account.platform]?.content ?? body.content ?? ""
      if (outcome.ok) {
        const target = outcome.result.targets[0]!
        return {
          accountId: account.id,
          platform: account.platform,
          username: account.username,
          ok: true,
          length: target.length,
          warnings: target.warnings,
          error: null,
          preview: previewFor(body, account.platform)
        }
      }
      const counted = textOnNetwork(text, account.platform)
      const repeated = postWide && outcome.error.code === postError.code && !namesAccount(outcome.error, account.id)
      return {
        accountId: account.id,
        platform: account.platform,
        username: account.username,
        ok: false,
        length: { used: counted.length, limit: counted.limit },
        warnings: [],
        error: repeated ? null : outcome.error,
        preview: previewFor(body, account.platform)
      }
    })
  }
})
