import { Deferred, Effect, Exit, Layer, Queue } from "effect"
import { SqlClient } from "effect/sql"
import { type CreateOutcome, type NewPost, PostCreator, type PostCreatorShape } from "../../application/ports/PostCreator.ts"
import { toJsonRow, toParams } from "./postRow.ts"
import { countOnShardZeroSql, countUncappedManySql } from "./usageShards.ts"

/*
 * New posts of uncapped plans are written in batches: concurrent creates waiting for a writer go
 * together in ONE statement (its own implicit transaction) that counts them, inserts them and
 * inserts their jobs. Under load that shares a statement's fixed costs (a round trip, the executor,
 * the relation locks, the commit and its WAL flush) among many posts; alone, a create is a batch of
 * one and waits for nothing. A batch is all or nothing, so when one fails each of its posts is
 * written again alone and gets its own outcome: a post never fails because of another.
 *
 * A capped plan's create is one statement per post (the conditional count on shard 0 decides it,
 * in order with the month's other creates), and so is any create inside `Store.transaction`, which
 * must join the transaction's connection.
 */

/** Writers: statements in flight at once, each taking every waiting create (up to MAX_BATCH). */
const DEFAULT_WRITERS = 4
const MAX_BATCH = 64

// Parameters: the posts (`posts` rows as JSON), the counts per workspace and month, the jobs.
const uncappedSql = `
  WITH counted AS (${countUncappedManySql("$2::jsonb")}
  ), created AS (
    INSERT INTO posts SELECT * FROM jsonb_populate_recordset(NULL::posts, $1::jsonb)
  )
  INSERT INTO jobs (id, kind, workspace_id, post_id, account_id, run_at, available_at, attempts)
  SELECT j.id, j.kind, j.workspace_id, j.post_id, j.account_id, j.run_at, j.run_at, j.attempts
  FROM jsonb_to_recordset($3::jsonb) AS j(id text, kind text, workspace_id text, post_id text, account_id text, run_at timestamptz, attempts int)`

/** The uncapped statement's values for some posts. */
const uncappedValuesOf = (entries: ReadonlyArray<NewPost>): Array<string> => {
  const counts = new Map<string, { workspace_id: string; month: string; count: number }>()
  for (const { post, usage } of entries) {
    const key = `${post.workspaceId}\u0000${usage.month}`
    const found = counts.get(key)
    if (found) found.count++
    else counts.set(key, { workspace_id: post.workspaceId, month: usage.month, count: 1 })
  }
  const ordered = [...counts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, c]) => c)
  const jobs = entries.flatMap((e) =>
    e.jobs.map((j) => ({ id: j.id, kind: j.kind, workspace_id: j.workspaceId, post_id: j.postId, account_id: j.accountId, run_at: new Date(j.runAt), attempts: j.attempts }))
  )
  return [JSON.stringify(entries.map((e) => toJsonRow(e.post))), JSON.stringify(ordered), JSON.stringify(jobs)]
}

/** The `posts` columns in insert order, with the cast each parameter needs. */
const postColumns = [
  ["id", ""], ["workspace_id", ""], ["status", ""], ["content", ""], ["media_ids", "::text[]"],
  ["first_comment", ""], ["thread", "::jsonb"], ["poll", "::jsonb"], ["cover", "::jsonb"],
  ["tiktok_ai_generated", ""], ["scheduled_for", "::timestamptz"], ["require_approval", ""],
  ["created_by", "::jsonb"], ["created_at", "::timestamptz"], ["updated_at", "::timestamptz"],
  ["published_at", "::timestamptz"], ["deleted_at", "::timestamptz"], ["deleted_reason", ""], ["targets", "::jsonb"]
] as const

// The capped statement: count on shard 0 if the month is under the cap, insert the post if the
// count went up, insert its jobs if the post went in. Parameters: $1..$19 the post (so $2 is its
// workspace), then the month, the jobs' six arrays, the limit. Built once; each create fills values.
const MONTH = `$${postColumns.length + 1}`
const jobArrays = ["::text[]", "::text[]", "::text[]", "::text[]", "::timestamptz[]", "::int[]"].map((cast, i) => `$${postColumns.length + 2 + i}${cast}`)
const LIMIT = `$${postColumns.length + 2 + jobArrays.length}`
const cappedSql = `
  WITH counted AS (${countOnShardZeroSql("$2", MONTH, LIMIT)}
  ), created AS (
    INSERT INTO posts (${postColumns.map(([column]) => column).join(", ")})
    SELECT ${postColumns.map(([, cast], i) => `$${i + 1}${cast}`).join(", ")}
    WHERE EXISTS (SELECT 1 FROM counted)
    RETURNING id
  ), queued AS (
    INSERT INTO jobs (id, kind, workspace_id, post_id, account_id, run_at, available_at, attempts)
    SELECT j.id, j.kind, j.workspace_id, created.id, j.account_id, j.run_at, j.run_at, j.attempts
    FROM created, unnest(${jobArrays.join(", ")}) AS j(id, kind, workspace_id, account_id, run_at, attempts)
    RETURNING 1
  )
  SELECT count FROM counted`

const cappedValuesOf = ({ jobs, post, usage }: NewPost): Array<unknown> => {
  const p = toParams(post)
  return [
    p.id, p.workspaceId, p.status, p.content, p.mediaIds, p.firstComment, p.thread, p.poll, p.cover,
    p.tiktokAiGenerated, p.scheduledFor, p.requireApproval, p.createdBy, p.createdAt, p.updatedAt,
    p.publishedAt, p.deletedAt, p.deletedReason, p.targets,
    usage.month,
    jobs.map((j) => j.id), jobs.map((j) => j.kind), jobs.map((j) => j.workspaceId), jobs.map((j) => j.accountId),
    jobs.map((j) => new Date(j.runAt).toISOString()), jobs.map((j) => j.attempts),
    usage.limit
  ]
}

interface Waiting {
  readonly entry: NewPost
  readonly done: Deferred.Deferred<CreateOutcome>
}

const created: CreateOutcome = { _tag: "Created", used: null }

export const make = (options: { readonly writers?: number } = {}) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const writeUncapped = (entries: ReadonlyArray<NewPost>) => sql.unsafe(uncappedSql, uncappedValuesOf(entries))
    const waiting = yield* Queue.unbounded<Waiting>()

    const writeBatch = (batch: ReadonlyArray<Waiting>) =>
      writeUncapped(batch.map((w) => w.entry)).pipe(
        Effect.matchCauseEffect({
          onSuccess: () => Effect.forEach(batch, (w) => Deferred.succeed(w.done, created), { discard: true }),
          // Each post alone, so only a post that fails by itself fails (as a defect, like any write).
          onFailure: () =>
            Effect.forEach(
              batch,
              (w) => Effect.flatMap(Effect.exit(Effect.orDie(writeUncapped([w.entry]))), (exit) => Deferred.done(w.done, Exit.map(exit, () => created))),
              { discard: true }
            )
        })
      )
    const writer = Effect.forever(Effect.flatMap(Queue.takeBetween(waiting, 1, MAX_BATCH), writeBatch))
    yield* Effect.forkScoped(Effect.all(Array.from({ length: options.writers ?? DEFAULT_WRITERS }, () => writer), { concurrency: "unbounded", discard: true }))

    const inTransaction = Effect.map(Effect.serviceOption(sql.transactionService), (o) => o._tag === "Some")
    return {
      create: (entry) => {
        if (entry.usage.limit !== null)
          return sql.unsafe<{ count: number }>(cappedSql, cappedValuesOf(entry)).pipe(
            Effect.map((rows): CreateOutcome => (rows[0] ? { _tag: "Created", used: rows[0].count } : { _tag: "OverCap" })),
            Effect.orDie
          )
        return Effect.flatMap(inTransaction, (joined) =>
          joined
            ? Effect.as(Effect.orDie(writeUncapped([entry])), created)
            : Effect.flatMap(Deferred.make<CreateOutcome>(), (done) => Effect.andThen(Queue.offer(waiting, { entry, done }), Deferred.await(done)))
        )
      }
    } satisfies PostCreatorShape
  })

export const layer = Layer.effect(PostCreator)(make())
