import { Schema } from "effect"
import { batchFromJson, createBatch } from "../../../application/usecases/planning/batch.ts"
import { listQueue, reorderQueue } from "../../../application/usecases/planning/queue.ts"
import { getSchedules, putSchedules, setQueuePaused } from "../../../application/usecases/planning/schedules.ts"
import { BatchRequest, BatchResult } from "../../../domain/contract/batch.ts"
import {
  PutSchedulesRequest,
  Queue,
  QueueChanged,
  ReorderRequest,
  Schedules,
  SchedulesChanged
} from "../../../domain/contract/planning.ts"
import { tool } from "../tool.ts"

// Planning as tools: schedules and their queues, and many posts in one call (the REST use cases).

const scheduleId = Schema.String.annotate({ description: "The schedule's id (sch_..., from get_schedules)" })

export const createPostsTool = tool({
  name: "create_posts",
  title: "Create, schedule, queue or dry-run many posts at once",
  description: [
    "Up to 1,000 posts in one call, each with create_post's fields (queue: true takes the next free slot of the accounts' schedule; scheduledFor may be {local, timeZone}).",
    "Each row is checked on its own: results[i] holds its post or its error. atomic: true stores all rows or none (batch_rejected lists every refused row).",
    "dryRun: true checks every row and shows what would be posted, counting every row toward the Free month's 30 posts. Set idempotencyKey so a retry replays the rows already stored."
  ].join(" "),
  input: Schema.Struct({
    ...BatchRequest.fields,
    idempotencyKey: Schema.optionalKey(
      Schema.String.annotate({ description: "Any unique string (1-240 characters) for this batch" })
    )
  }),
  output: BatchResult,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  run: ({ idempotencyKey, ...body }, call) => createBatch(call.actor, batchFromJson(body), idempotencyKey ?? null)
})

export const getSchedulesTool = tool({
  name: "get_schedules",
  title: "Read the posting schedules and time zones",
  description:
    "The workspace's time zone, each account's own zone, and the posting schedules: weekly slots in a zone for one or more accounts, with the next slot times in UTC and local time.",
  input: Schema.Struct({}),
  output: Schedules,
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: (_args, call) => getSchedules(call.actor)
})

export const setSchedulesTool = tool({
  name: "set_schedules",
  title: "Replace the posting schedules",
  description: [
    "Sets every schedule of the workspace (read them first with get_schedules: one left out is deleted) and accounts' own time zones.",
    "A schedule whose slots, zone or accounts change lays its queued posts again in their order (moved); posts of a removed schedule or account keep their times (released).",
    "Asks-first keys cannot change schedules (approval_requires_human)."
  ].join(" "),
  input: PutSchedulesRequest,
  output: SchedulesChanged,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  run: (args, call) => putSchedules(call.actor, args)
})

export const getQueueTool = tool({
  name: "get_queue",
  title: "List a schedule's queued posts",
  description: "The posts queued on a schedule from now on, in slot order, each with its time in UTC and local time.",
  input: Schema.Struct({
    scheduleId,
    limit: Schema.optionalKey(Schema.Int.annotate({ description: "1-500, default 50" })),
    cursor: Schema.optionalKey(Schema.String.annotate({ description: "nextCursor of the previous page" }))
  }),
  output: Queue,
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: (args, call) =>
    listQueue(call.actor, args.scheduleId, {
      limit: args.limit === undefined ? undefined : String(args.limit),
      cursor: args.cursor
    })
})

export const reorderQueueTool = tool({
  name: "reorder_queue",
  title: "Put queued posts in another order",
  description:
    "The posts named take the slots again in this order, from the earliest slot any of them holds; other posts keep theirs. A key may reorder only its own posts.",
  input: Schema.Struct({ scheduleId, ...ReorderRequest.fields }),
  output: QueueChanged,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: (args, call) => reorderQueue(call.actor, args.scheduleId, args.postIds)
})

export const pauseQueueTool = tool({
  name: "pause_queue",
  title: "Pause or resume a posting queue",
  description:
    "paused: true holds the queue's posts back (they keep their order); false resumes it, laying them again on the slots from now on.",
  input: Schema.Struct({ scheduleId, paused: Schema.Boolean }),
  output: QueueChanged,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: (args, call) => setQueuePaused(call.actor, args.scheduleId, args.paused)
})

export const planningTools = [
  createPostsTool,
  getSchedulesTool,
  setSchedulesTool,
  getQueueTool,
  reorderQueueTool,
  pauseQueueTool
] as const
