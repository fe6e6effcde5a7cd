import { Schema } from "effect"
import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { csvColumns } from "../../domain/batch.ts"
import { BatchRequest, BatchResult } from "../../domain/contract/batch.ts"
import {
  PutSchedulesRequest,
  Queue,
  QueueChanged,
  ReorderRequest,
  Schedules,
  SchedulesChanged
} from "../../domain/contract/planning.ts"
import { requestParseOptions } from "../../domain/contract/postRequest.ts"
import { apiErrors } from "./errors.ts"
import { Authentication } from "./security.ts"

// Planning: posting schedules and their queues, and many posts in one request.

const e = apiErrors
const Str = Schema.String
const opt = Schema.optional
const id = { id: Str }

/** CSV batches: one post a row under a header of the documented columns. */
const CsvBatch = Str.pipe(HttpApiSchema.asText({ contentType: "text/csv" })).annotate({
  description: `A header row, then one post a row. Columns (any order; only accountIds is required): ${csvColumns.join(", ")}. accountIds and mediaIds take ids separated by spaces or semicolons; local with timeZone is a local time; queue and requireApproval take true or false. atomic and dryRun go in the query string`
})

export class PlanningGroup extends HttpApiGroup.make("planning")
  .add(
    HttpApiEndpoint.get("schedules", "/schedules", { success: Schedules, error: e(401) })
      .annotate(OpenApi.Summary, "Posting schedules, the workspace's zone and accounts' own zones")
      .annotate(
        OpenApi.Description,
        "Each schedule is a weekly set of slots in its time zone for one or more accounts; POST /posts with queue: true takes the first slot free for every target. nextSlots shows the next slot times with their local time."
      ),
    HttpApiEndpoint.put("putSchedules", "/schedules", {
      payload: PutSchedulesRequest,
      success: SchedulesChanged,
      error: e(400, 401, 403, 404)
    })
      .annotate(HttpApi.PayloadParseOptions, requestParseOptions)
      .annotate(OpenApi.Summary, "Replace the posting schedules (and set accounts' own time zones)")
      .annotate(
        OpenApi.Description,
        "Every schedule of the workspace: one left out is deleted. A schedule whose slots, zone or accounts change lays its queued posts again, in their order, each on the first slot free for all its accounts (moved); posts whose account left, or whose schedule was deleted, leave the queue keeping their times (released). An asks-first key cannot change schedules (403 approval_requires_human)."
      ),
    HttpApiEndpoint.get("queue", "/schedules/:id/queue", {
      params: id,
      query: { limit: opt(Str), cursor: opt(Str) },
      success: Queue,
      error: e(400, 401, 404)
    }).annotate(OpenApi.Summary, "A schedule's queued posts from now on, in slot order, with local times"),
    HttpApiEndpoint.post("reorder", "/schedules/:id/queue/reorder", {
      params: id,
      payload: ReorderRequest,
      success: QueueChanged,
      error: e(400, 401, 403, 404)
    })
      .annotate(HttpApi.PayloadParseOptions, requestParseOptions)
      .annotate(OpenApi.Summary, "Put queued posts in another order")
      .annotate(
        OpenApi.Description,
        "The posts named are laid again in this order from the earliest slot any of them holds, each on the first slot free for all its accounts; other posts keep theirs. A key may reorder only its own posts."
      ),
    HttpApiEndpoint.post("pause", "/schedules/:id/pause", {
      params: id,
      success: QueueChanged,
      error: e(401, 403, 404)
    })
      .annotate(OpenApi.Summary, "Pause a queue: its posts keep their order but do not go out")
      .annotate(
        OpenApi.Description,
        "Queued posts keep their slots and order and are not published while paused (a person's approval still publishes a post by its time). New posts may still join the queue."
      ),
    HttpApiEndpoint.post("resume", "/schedules/:id/resume", {
      params: id,
      success: QueueChanged,
      error: e(401, 403, 404)
    })
      .annotate(OpenApi.Summary, "Resume a queue: its posts are laid again on the slots from now on")
      .annotate(
        OpenApi.Description,
        "Posts whose slots passed while paused take the next free slots, in the queue's order; the posts behind them follow (moved)."
      ),
    HttpApiEndpoint.post("batch", "/posts/batch", {
      payload: [BatchRequest, CsvBatch],
      query: { atomic: opt(Str), dryRun: opt(Str) },
      headers: { "idempotency-key": Schema.optional(Schema.String) },
      success: [BatchResult.pipe(HttpApiSchema.status(201)), BatchResult],
      error: e(400, 401, 403, 409, 422)
    })
      .annotate(HttpApi.PayloadParseOptions, requestParseOptions)
      .annotate(OpenApi.Summary, "Create, schedule, queue or dry-run many posts at once (JSON or CSV)")
      .annotate(
        OpenApi.Description,
        "Up to 1,000 posts, each checked by POST /posts's rules on its own and answered in results (its post or its error). atomic: true stores all rows or none (400 batch_rejected lists every refused row); otherwise each valid row is stored. Every stored row counts toward a Free month's 30 posts. One Idempotency-Key covers the batch: a retry replays the rows stored and tries the others; the key with another batch is 422 idempotency_key_reused. 201 when a post was created, else 200."
      )
  )
  .middleware(Authentication)
  .annotate(
    OpenApi.Description,
    "Planning in the workspace's time zone: weekly posting schedules, the queue that fills their slots, and many posts at once."
  ) {}
