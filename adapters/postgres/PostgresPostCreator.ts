import { Deferred, Effect, Layer, Option, Queue, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import {
  type CreateOutcome,
  type NewPost,
  PostCreator,
  type PostCreatorShape
} from "../../application/ports/PostCreator.ts"
import { toJsonRow, toParams } from "./postRow.ts"
import * as PostgresIdempotencyStore from "./PostgresIdempotencyStore.ts"
import { countOnShardZeroSql, countUncappedManySql } from "./usageShards.ts"
import { eventCtes, eventsJson } from "./eventSql.ts"
import { formatUtc } from "../../domain/time.ts"

/*
 * New posts of uncapped plans are written in batches: concurrent creates waiting for a writer go
 * together in ONE statement (its own implicit transaction) that counts them, inserts them and
 * inserts their jobs. Under load that shares a statement's fixed costs (a round trip, the executor,
 * the relation locks, the commit and its WAL flush) among many posts; alone, a create is a batch of
 * one and waits for nothing. A batch is all or nothing, so when one fails each of its posts is
 * written again alone and gets its own outcome: a post never fails because of another.
 *
 * An idempotency key is claimed in the same statement: a post goes in only if its key was free (or
 * its record expired). A post that did not go in (its key is held) is then taken alone, through the
 * idempotency store's claim, which finds the holder.
 *
 * Taken alone, one per statement: a capped plan's create (the conditional count on shard 0 decides
 * it, in order with the month's other creates), a create inside `Store.transaction` (it must join
 * the transaction's connection), and a create whose key is already in the batch.
 */

/** Writers: statements in flight at once, each taking every waiting create (up to MAX_BATCH). */
const DEFAULT_WRITERS = 4
const MAX_BATCH = 64

// Parameters: the posts (`posts` rows as JSON), each post's workspace and month, the jobs, the
// idempotency claims, the ids of the posts that have a claim, and the posts' events. Posts go in when
// they have no claim or their claim went in; counts, jobs and events follow the posts that went in.
const uncappedSql = `
  WITH claimed AS (
    INSERT INTO idempotency_keys (scope, key, request_hash, post_id, created_at, expires_at)
    SELECT c.scope, c.key, c.request_hash, c.post_id, c.created_at, c.expires_at
    FROM jsonb_to_recordset($4::jsonb) AS c(scope text, key text, request_hash text, post_id text, created_at timestamptz, expires_at timestamptz)
    ON CONFLICT (scope, key) DO UPDATE SET
      request_hash = excluded.request_hash, post_id = excluded.post_id,
      created_at = excluded.created_at, expires_at = excluded.expires_at
      WHERE idempotency_keys.expires_at <= excluded.created_at
    RETURNING post_id
  ), created AS (
    INSERT INTO posts SELECT p.* FROM jsonb_populate_recordset(NULL::posts, $1::jsonb) AS p
    WHERE p.id <> ALL ($5::text[]) OR p.id IN (SELECT post_id FROM claimed)
    RETURNING id
  ), counted AS (${countUncappedManySql("created", "$2::jsonb")}
  ), queued AS (
    INSERT INTO jobs (id, kind, workspace_id, post_id, account_id, run_at, available_at, attempts)
    SELECT j.id, j.kind, j.workspace_id, j.post_id, j.account_id, j.run_at, j.run_at, j.attempts
    FROM jsonb_to_recordset($3::jsonb) AS j(id text, kind text, workspace_id text, post_id text, account_id text, run_at timestamptz, attempts int)
    WHERE j.post_id IN (SELECT id FROM created)
  ), ${eventCtes("post_events", "$6", "x.resource_id IN (SELECT id FROM created)")}
  SELECT id FROM created`

/** The uncapped statement's values for some posts (claims in key order, so concurrent batches lock keys alike). */
const uncappedValuesOf = (entries: ReadonlyArray<NewPost>): Array<unknown> => {
  const claims = entries
    .flatMap((e) => (e.claim ? [e.claim] : []))
    .sort((a, b) => (a.scope + "\u0000" + a.key < b.scope + "\u0000" + b.key ? -1 : 1))
  return [
    JSON.stringify(entries.map((e) => toJsonRow(e.post))),
    JSON.stringify(
      entries.map((e) => ({ post_id: e.post.id, workspace_id: e.post.workspaceId, month: e.usage.month }))
    ),
    JSON.stringify(
      entries.flatMap((e) =>
        e.jobs.map((j) => ({
          id: j.id,
          kind: j.kind,
          workspace_id: j.workspaceId,
          post_id: j.postId,
          account_id: j.accountId,
          run_at: formatUtc(j.runAt),
          attempts: j.attempts
        }))
      )
    ),
    JSON.stringify(
      claims.map((c) => ({
        scope: c.scope,
        key: c.key,
        request_hash: c.requestHash,
        post_id: c.postId,
        created_at: formatUtc(c.createdAt),
        expires_at: formatUtc(c.expiresAt)
      }))
    ),
    claims.map((c) => c.postId),
    eventsJson(entries.flatMap((e) => e.events ?? []))
  ]
}

/** The `posts` columns in insert order, with the cast each parameter needs. */
const postColumns = [
  ["id", ""],
  ["workspace_id", ""],
  ["status", ""],
  ["content", ""],
  ["media_ids", "::text[]"],
  ["first_comment", ""],
  ["thread", "::jsonb"],
  ["poll", "::jsonb"],
  ["cover", "::jsonb"],
  ["tiktok_ai_generated", ""],
  ["scheduled_for", "::timestamptz"],
  ["require_approval", ""],
  ["created_by", "::jsonb"],
  ["created_at", "::timestamptz"],
  ["updated_at", "::timestamptz"],
  ["published_at", "::timestamptz"],
  ["deleted_at", "::timestamptz"],
  ["deleted_reason", ""],
  ["targets", "::jsonb"],
  ["network_options", "::jsonb"],
  ["overrides", "::jsonb"]
] as const

// The capped statement: count on shard 0 if the month is under the cap, insert the post if the
// count went up, insert its jobs and events if the post went in, and the limit's event if it brought
// the month to the cap. Parameters: $1..$21 the post (so $2 is its workspace), then the month, the
// jobs' six arrays, the limit, the events, the limit's event. Built once; each create fills values.
const MONTH = `$${postColumns.length + 1}`
const jobArrays = ["::text[]", "::text[]", "::text[]", "::text[]", "::timestamptz[]", "::int[]"].map(
  (cast, i) => `$${postColumns.length + 2 + i}${cast}`
)
const LIMIT = `$${postColumns.length + 2 + jobArrays.length}`
const EVENTS = `$${postColumns.length + 3 + jobArrays.length}`
const LIMIT_EVENT = `$${postColumns.length + 4 + jobArrays.length}`
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
  ), ${eventCtes("post_events", EVENTS, "EXISTS (SELECT 1 FROM created)")},
  ${eventCtes("limit_events", LIMIT_EVENT, `EXISTS (SELECT 1 FROM created) AND (SELECT count FROM counted) = ${LIMIT}`)}
  SELECT count FROM counted`

const cappedValuesOf = ({ atLimit, events, jobs, post, usage }: NewPost): Array<unknown> => {
  const p = toParams(post)
  return [
    p.id,
    p.workspaceId,
    p.status,
    p.content,
    p.mediaIds,
    p.firstComment,
    p.thread,
    p.poll,
    p.cover,
    p.tiktokAiGenerated,
    p.scheduledFor,
    p.requireApproval,
    p.createdBy,
    p.createdAt,
    p.updatedAt,
    p.publishedAt,
    p.deletedAt,
    p.deletedReason,
    p.targets,
    p.networkOptions,
    p.overrides,
    usage.month,
    jobs.map((j) => j.id),
    jobs.map((j) => j.kind),
    jobs.map((j) => j.workspaceId),
    jobs.map((j) => j.accountId),
    jobs.map((j) => formatUtc(j.runAt)),
    jobs.map((j) => j.attempts),
    usage.limit,
    eventsJson(events ?? []),
    eventsJson(atLimit === undefined ? [] : [atLimit])
  ]
}

interface Waiting {
  readonly entry: NewPost
  readonly done: Deferred.Deferred<CreateOutcome>
}

const created: CreateOutcome = { _tag: "Created", used: null }

class OverCapRollback extends Schema.TaggedError<OverCapRollback>()("OverCapRollback", {}) {}

const keyOf = (entry: NewPost) => (entry.claim ? `${entry.claim.scope}\u0000${entry.claim.key}` : undefined)

export const make = (options: { readonly writers?: number } = {}) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const keys = yield* PostgresIdempotencyStore.make
    /** The ids of the posts that went in. */
    const writeUncapped = (entries: ReadonlyArray<NewPost>) =>
      Effect.map(
        sql.unsafe<{ id: string }>(uncappedSql, uncappedValuesOf(entries)),
        (rows) => new Set(rows.map((r) => r.id))
      )

    const writeUnclaimed = (entry: NewPost): Effect.Effect<CreateOutcome, SqlError.SqlError> =>
      entry.usage.limit === null
        ? Effect.as(writeUncapped([{ ...entry, claim: undefined }]), created)
        : Effect.map(
            sql.unsafe<{ count: number }>(cappedSql, cappedValuesOf(entry)),
            (rows): CreateOutcome => (rows[0] ? { _tag: "Created", used: rows[0].count } : { _tag: "OverCap" })
          )

    /** One create, in its own statement; with a key, the claim and the create in one transaction. */
    const writeAlone = (entry: NewPost): Effect.Effect<CreateOutcome> => {
      const claim = entry.claim
      if (claim === undefined) return Effect.orDie(writeUnclaimed(entry))
      return sql
        .withTransaction(
          Effect.gen(function* () {
            const holder = yield* keys.claim(claim, claim.createdAt)
            if (Option.isSome(holder)) return { _tag: "KeyHeld", holder: holder.value } satisfies CreateOutcome
            const outcome = yield* writeUnclaimed(entry)
            // Over the cap the claim goes back too: the key stays free for a retry next month.
            return outcome._tag === "OverCap" ? yield* Effect.fail(new OverCapRollback({})) : outcome
          })
        )
        .pipe(
          Effect.catchTag("OverCapRollback", () => Effect.succeed<CreateOutcome>({ _tag: "OverCap" })),
          Effect.orDie
        )
    }

    const waiting = yield* Queue.unbounded<Waiting>()
    const settleAlone = (w: Waiting) =>
      Effect.flatMap(Effect.exit(writeAlone(w.entry)), (exit) => Deferred.done(w.done, exit))
    const writeBatch = (taken: ReadonlyArray<Waiting>) => {
      // A key twice in one statement is an error; the later create waits for the earlier's commit.
      const seen = new Set<string>()
      const batch: Array<Waiting> = []
      const after: Array<Waiting> = []
      for (const w of taken) {
        const key = keyOf(w.entry)
        if (key !== undefined && seen.has(key)) after.push(w)
        else {
          if (key !== undefined) seen.add(key)
          batch.push(w)
        }
      }
      return writeUncapped(batch.map((w) => w.entry)).pipe(
        Effect.matchCauseEffect({
          // A post whose key was held did not go in: alone, the claim finds the holder.
          onSuccess: (ids) =>
            Effect.forEach(
              batch,
              (w) => (ids.has(w.entry.post.id) ? Deferred.succeed(w.done, created) : settleAlone(w)),
              { discard: true }
            ),
          // Each post alone, so only a post that fails by itself fails (as a defect, like any write).
          onFailure: () => Effect.forEach(batch, settleAlone, { discard: true })
        }),
        Effect.andThen(Effect.forEach(after, settleAlone, { discard: true }))
      )
    }
    const writer = Effect.forever(Effect.flatMap(Queue.takeBetween(waiting, 1, MAX_BATCH), writeBatch))
    yield* Effect.forkScoped(
      Effect.all(
        Array.from({ length: options.writers ?? DEFAULT_WRITERS }, () => writer),
        { concurrency: "unbounded", discard: true }
      )
    )

    const inTransaction = Effect.map(Effect.serviceOption(sql.transactionService), (o) => o._tag === "Some")
    return {
      create: (entry) =>
        entry.usage.limit !== null
          ? writeAlone(entry)
          : Effect.flatMap(inTransaction, (joined) =>
              joined
                ? writeAlone(entry)
                : Effect.flatMap(Deferred.make<CreateOutcome>(), (done) =>
                    Effect.andThen(Queue.offer(waiting, { entry, done }), Deferred.await(done))
                  )
            )
    } satisfies PostCreatorShape
  })

export const layer = Layer.effect(PostCreator)(make())
