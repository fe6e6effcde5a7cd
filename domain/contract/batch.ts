import { Schema } from "effect"
import { MAX_BATCH_ROWS } from "../batch.ts"
import { DryRunResult } from "./dryRun.ts"
import { Planned } from "./planning.ts"
import { Post } from "./post.ts"

// POST /posts/batch: many posts in one request (JSON, or CSV with the columns of domain/batch.ts).

const rowsMessage = `posts must be an array of 1-${MAX_BATCH_ROWS} post requests.`

export const BatchRequest = Schema.Struct({
  posts: Schema.Array(Schema.Unknown)
    .check(
      Schema.isMinLength(1, { message: rowsMessage }),
      Schema.isMaxLength(MAX_BATCH_ROWS, { message: rowsMessage })
    )
    .annotate({
      description:
        "Each a POST /posts body (without dryRun: the batch's own says). Each row is checked on its own; its errors are its own"
    }),
  atomic: Schema.optionalKey(
    Schema.Boolean.annotate({
      description:
        "true: all rows or none (any refused row refuses the batch, 400 batch_rejected listing every row's error); false (default): each valid row is stored"
    })
  ),
  dryRun: Schema.optionalKey(
    Schema.Boolean.annotate({ description: "true: check every row and show what would be posted; nothing is stored" })
  )
}).annotate({ identifier: "BatchRequest" })
export type BatchRequest = typeof BatchRequest.Type

export const RowError = Schema.Struct({
  code: Schema.String,
  message: Schema.String,
  hint: Schema.String,
  retryable: Schema.Boolean,
  details: Schema.optionalKey(Schema.Record(Schema.String, Schema.Unknown))
}).annotate({ identifier: "RowError" })

export const BatchRow = Schema.Struct({
  row: Schema.Int.annotate({
    description: "1-based: the posts array's position, or the CSV's data row (after the header)"
  }),
  ok: Schema.Boolean,
  replayed: Schema.Boolean.annotate({ description: "An earlier try of this batch (same Idempotency-Key) created it" }),
  post: Schema.NullOr(Post),
  planned: Schema.NullOr(Planned),
  dryRun: Schema.NullOr(DryRunResult),
  error: Schema.NullOr(RowError)
}).annotate({ identifier: "BatchRow" })

export const BatchResult = Schema.Struct({
  dryRun: Schema.Boolean,
  atomic: Schema.Boolean,
  created: Schema.Int,
  replayed: Schema.Int,
  failed: Schema.Int,
  results: Schema.Array(BatchRow)
}).annotate({ identifier: "BatchResult" })
export type BatchResult = typeof BatchResult.Type
export type BatchRow = typeof BatchRow.Type
