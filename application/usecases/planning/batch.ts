import { Effect, Option, Result } from "effect"
import type { Actor } from "../../../domain/apiKey.ts"
import { rowsOfCsv } from "../../../domain/batch.ts"
import type { BatchRequest, BatchResult, BatchRow } from "../../../domain/contract/batch.ts"
import type { DryRunResult } from "../../../domain/contract/dryRun.ts"
import type { Planned } from "../../../domain/contract/planning.ts"
import type { Post } from "../../../domain/contract/post.ts"
import { decodeCreatePostBody } from "../../../domain/contract/postRequest.ts"
import { fail, type HeraldError, invalidFields, toEnvelope } from "../../../domain/errors.ts"
import { IdempotencyStore } from "../../ports/IdempotencyStore.ts"
import { ScheduleRepo } from "../../ports/ScheduleRepo.ts"
import { Store } from "../../ports/Store.ts"
import { Crypto } from "../../ports/Crypto.ts"
import { canonicalJson, fromResult, now } from "../common.ts"
import { createPost } from "../posts/create.ts"
import { cachedWorkspace } from "../auth.ts"
import { planLimits } from "../../../domain/workspace.ts"
import { queueSession } from "./placement.ts"

// POST /posts/batch (and MCP's create_posts): many posts, each row decoded and checked by the create
// rules on its own, stored all-or-nothing or row by row. One Idempotency-Key covers the batch: each
// row is claimed under it with its position, so a retry replays the rows stored and tries the others.

const IDEMPOTENCY_LIFETIME_MS = 24 * 60 * 60 * 1000
/** Rows without a queue slot are written this many at a time (their writes share statements). */
const ROW_CONCURRENCY = 8
const MAX_BATCH_KEY = 240

export interface BatchInput {
  /** The rows as sent: each is decoded here, so one malformed row is that row's error. */
  readonly rows: ReadonlyArray<unknown>
  readonly atomic: boolean
  readonly dryRun: boolean
  /** The batch's canonical form for its idempotency hash (the JSON body, or the CSV text). */
  readonly canonical: string
}

type RowOutcome =
  | { readonly _tag: "created"; readonly post: Post; readonly planned: Planned | null }
  | { readonly _tag: "replayed"; readonly post: Post }
  | { readonly _tag: "dryRun"; readonly result: DryRunResult }
  | { readonly _tag: "failed"; readonly error: HeraldError }

const rowError = (error: HeraldError) => toEnvelope(error).body.error

const rowOf = (row: number, outcome: RowOutcome): BatchRow => ({
  row,
  ok: outcome._tag !== "failed" && !(outcome._tag === "dryRun" && !outcome.result.valid),
  replayed: outcome._tag === "replayed",
  post: outcome._tag === "created" || outcome._tag === "replayed" ? outcome.post : null,
  planned:
    outcome._tag === "created" ? outcome.planned : outcome._tag === "dryRun" ? (outcome.result.planned ?? null) : null,
  dryRun: outcome._tag === "dryRun" ? outcome.result : null,
  error: outcome._tag === "failed" ? rowError(outcome.error) : null
})

/** Whether a raw row asks for the queue (decided before decoding, so the lock is taken first). */
const wantsQueue = (row: unknown) =>
  typeof row === "object" && row !== null && (row as { queue?: unknown }).queue === true

/** A JSON batch: its rows, and its options (the body's, else the query's). */
export const batchFromJson = (
  body: BatchRequest,
  query: { readonly atomic?: boolean | undefined; readonly dryRun?: boolean | undefined } = {}
): BatchInput => ({
  rows: body.posts,
  atomic: body.atomic ?? query.atomic ?? false,
  dryRun: body.dryRun ?? query.dryRun ?? false,
  canonical: canonicalJson(body)
})

/** A CSV batch: its rows as create-post objects (domain/batch.ts), its options from the query. */
export const batchFromCsv = (
  text: string,
  query: { readonly atomic?: boolean | undefined; readonly dryRun?: boolean | undefined }
) =>
  Effect.map(fromResult(rowsOfCsv(text)), (rows) => ({
    rows,
    atomic: query.atomic ?? false,
    dryRun: query.dryRun ?? false,
    canonical: canonicalJson({ csv: text, atomic: query.atomic ?? false })
  }))

/** Creates (or dry-runs) the rows; answers each row's post or error. */
export const createBatch = Effect.fn("createBatch")(function* (
  actor: Actor,
  input: BatchInput,
  idempotencyKey: string | null
) {
  if (input.rows.length === 0) return yield* Effect.fail(invalidFields(["posts"], "A batch needs at least one row."))
  if (idempotencyKey !== null && (idempotencyKey.length === 0 || idempotencyKey.length > MAX_BATCH_KEY))
    return yield* Effect.fail(
      invalidFields(["Idempotency-Key"], `A batch's Idempotency-Key is 1-${MAX_BATCH_KEY} characters.`)
    )
  const session = queueSession()
  const queued = input.rows.some(wantsQueue)
  // Every row's slot comes from one read of the queue: the lock holds for the whole batch.
  const needsTransaction = input.atomic || (queued && !input.dryRun)

  const runRow = (raw: unknown, index: number, dryRunOnly: boolean) =>
    Effect.gen(function* () {
      const decoded = decodeCreatePostBody(raw)
      if (Result.isFailure(decoded)) return { _tag: "failed", error: decoded.failure } satisfies RowOutcome
      if (decoded.success.dryRun !== undefined && decoded.success.dryRun !== null)
        return {
          _tag: "failed",
          error: invalidFields(["dryRun"], "dryRun belongs to the batch, not to a row.")
        } satisfies RowOutcome
      const body = input.dryRun || dryRunOnly ? { ...decoded.success, dryRun: true } : decoded.success
      const key = idempotencyKey === null ? null : `${idempotencyKey}#${index + 1}`
      const result = yield* Effect.result(createPost(actor, body, key, session))
      if (Result.isFailure(result)) return { _tag: "failed", error: result.failure } satisfies RowOutcome
      const answer = result.success
      if (answer.kind === "dryRun") return { _tag: "dryRun", result: answer.body } satisfies RowOutcome
      if (answer.kind === "replayed") return { _tag: "replayed", post: answer.body.post } satisfies RowOutcome
      const planned = (answer.body as { readonly planned?: Planned }).planned ?? null
      return { _tag: "created", post: answer.body.post, planned } satisfies RowOutcome
    })

  const run = Effect.gen(function* () {
    if (queued && needsTransaction) {
      yield* (yield* ScheduleRepo).lockQueue(actor.workspaceId)
      session.locked = true
    }
    if (idempotencyKey !== null && !input.dryRun) yield* claimBatch(actor, idempotencyKey, input.canonical)
    const outcomes: Array<RowOutcome> = []
    if (input.atomic) {
      // All or nothing: after the first refused row the others are only checked, so every error is listed.
      let refused = false
      for (const [i, raw] of input.rows.entries()) {
        const outcome = yield* runRow(raw, i, refused)
        if (outcome._tag === "failed") refused = true
        outcomes.push(outcome)
      }
      if (refused && !input.dryRun) {
        const rows = outcomes.flatMap((o, i) => (o._tag === "failed" ? [{ row: i + 1, ...rowError(o.error) }] : []))
        return yield* Effect.fail(fail("batch_rejected", { rows, refused: rows.length, total: input.rows.length }))
      }
    } else if (queued) for (const [i, raw] of input.rows.entries()) outcomes.push(yield* runRow(raw, i, false))
    else {
      // Under a monthly cap, rows go in order, so the rows past it are the last ones.
      const workspace = yield* cachedWorkspace(actor.workspaceId)
      const capped = Option.match(workspace, {
        onNone: () => true,
        onSome: (w) => planLimits[w.plan].postsPerMonth !== null
      })
      const concurrency = capped ? 1 : ROW_CONCURRENCY
      outcomes.push(...(yield* Effect.forEach(input.rows, (raw, i) => runRow(raw, i, false), { concurrency })))
    }
    return outcomes
  })
  const outcomes = needsTransaction ? yield* (yield* Store).transaction(run) : yield* run
  const results = (input.dryRun ? countEveryRow(outcomes) : outcomes).map((o, i) => rowOf(i + 1, o))
  return {
    dryRun: input.dryRun,
    atomic: input.atomic,
    created: outcomes.filter((o) => o._tag === "created").length,
    replayed: outcomes.filter((o) => o._tag === "replayed").length,
    failed: results.filter((r) => !r.ok).length,
    results
  } satisfies BatchResult
})

/**
 * A dry run counts every valid row toward the month's posts, as the real batch would: rows past the
 * plan's cap are refused with post_limit_reached.
 */
const countEveryRow = (outcomes: ReadonlyArray<RowOutcome>): ReadonlyArray<RowOutcome> => {
  let counted = 0
  return outcomes.map((o) => {
    if (o._tag !== "dryRun" || !o.result.valid) return o
    const { used, limit, month } = o.result.wouldPost.usage
    counted++
    return limit !== null && used + counted > limit
      ? ({ _tag: "failed", error: fail("post_limit_reached", { limit, month, row: counted }) } satisfies RowOutcome)
      : o
  })
}

/** The batch's own claim on its key: the same key with another batch is idempotency_key_reused. */
const claimBatch = Effect.fnUntraced(function* (actor: Actor, key: string, canonical: string) {
  const at = yield* now
  const crypto = yield* Crypto
  const record = {
    scope: `${actor.workspaceId}:${actor.kind === "key" ? actor.keyId : actor.personId}`,
    key: `batch:${key}`,
    requestHash: yield* crypto.sha256(canonical),
    postId: "batch",
    createdAt: at,
    expiresAt: at + IDEMPOTENCY_LIFETIME_MS
  }
  const holder = yield* (yield* IdempotencyStore).claim(record, at)
  if (Option.isSome(holder) && holder.value.requestHash !== record.requestHash)
    return yield* Effect.fail(fail("idempotency_key_reused"))
})
