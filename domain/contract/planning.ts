import { Schema } from "effect"
import { MAX_SCHEDULES, MAX_SLOTS, weekdays } from "../schedule.ts"
import { Time } from "./postParts.ts"

// Time zones and posting queues on the wire: the local form of a time, the local time shown beside
// a UTC one, and the schedules (GET/PUT /schedules) with their queues.

const Str = Schema.String
const zone = "An IANA time zone, e.g. Europe/Berlin, America/New_York, Asia/Kolkata or UTC"

/** A wall-clock time in a zone, instead of an instant with an offset. */
export const LocalTime = Schema.Struct({
  local: Str.annotate({ description: "Wall-clock time, YYYY-MM-DDTHH:MM or YYYY-MM-DDTHH:MM:SS, without an offset" }),
  timeZone: Schema.optionalKey(
    Str.annotate({
      description: `${zone}. On POST /posts it may be left out: the targets' zone is used (an account's own zone, else the workspace's)`
    })
  )
}).annotate({
  identifier: "LocalTime",
  description:
    "A local time in a zone. A time a daylight-saving change repeats means its first occurrence; one it skips is refused with local_time_skipped"
})
export type LocalTime = typeof LocalTime.Type

/** scheduledFor as requests take it: an instant with an offset, or a local time in a zone. */
export const ScheduledForInput = Schema.Union([
  Str.annotate({ description: "ISO 8601 with a timezone offset, e.g. 2026-12-01T09:00:00+09:00" }),
  LocalTime
])
export type ScheduledForInput = typeof ScheduledForInput.Type

/** An instant as a person reads it, shown beside the UTC one. */
export const LocalView = Schema.Struct({
  local: Str.annotate({ description: "The wall-clock time there, YYYY-MM-DDTHH:MM:SS" }),
  timeZone: Str,
  utcOffset: Str.annotate({ description: "The zone's offset at that instant, e.g. +02:00" })
}).annotate({ identifier: "LocalView" })

/** When a post planned in a zone (a local time, or a queue's slot) goes out, in UTC and there. */
export const Planned = Schema.Struct({
  scheduledFor: Time,
  ...LocalView.fields,
  scheduleId: Schema.NullOr(Str).annotate({
    description: "The schedule whose queue slot the post took; null: not queued"
  })
}).annotate({
  identifier: "Planned",
  description: "When a post planned in a zone goes out (a local time, or the queue's slot it took), in UTC and there"
})
export type Planned = typeof Planned.Type

export const Weekday = Schema.Literals(weekdays).annotate({ identifier: "Weekday" })

export const WeeklySlot = Schema.Struct({
  day: Weekday,
  time: Str.annotate({ description: "HH:MM, 24-hour, in the schedule's zone" })
}).annotate({ identifier: "WeeklySlot" })

const ScheduleFields = {
  name: Schema.optionalKey(Str.annotate({ description: "A label for people, up to 100 characters" })),
  accountIds: Schema.Array(Str).annotate({
    description: "The accounts that queue on this schedule; an account is in one schedule at most"
  }),
  timeZone: Schema.optionalKey(
    Str.annotate({ description: `${zone}. Default: the one account's own zone, else the workspace's` })
  ),
  slots: Schema.Array(WeeklySlot).annotate({ description: `1-${MAX_SLOTS} weekly slots` }),
  paused: Schema.optionalKey(
    Schema.Boolean.annotate({ description: "true: queued posts keep their order but do not go out" })
  )
}

/** One schedule of PUT /schedules; with `id`, the schedule of that id is changed (its queued posts move with it). */
export const ScheduleInput = Schema.Struct({
  id: Schema.optionalKey(Str.annotate({ description: "An existing schedule's id (sch_...); none: a new schedule" })),
  ...ScheduleFields
}).annotate({ identifier: "ScheduleInput" })
export type ScheduleInput = typeof ScheduleInput.Type

export const PutSchedulesRequest = Schema.Struct({
  schedules: Schema.Array(ScheduleInput).annotate({
    description: `Every schedule of the workspace (at most ${MAX_SCHEDULES}); one left out is deleted, its queued posts keeping their times`
  }),
  accountTimeZones: Schema.optionalKey(
    Schema.Record(Str, Schema.NullOr(Str)).annotate({
      description:
        "Account id -> its own time zone (null: the workspace's). Accounts left out keep theirs. Used for local times and new schedules"
    })
  )
}).annotate({ identifier: "PutSchedulesRequest" })
export type PutSchedulesRequest = typeof PutSchedulesRequest.Type

export const SlotView = Schema.Struct({ at: Time, ...LocalView.fields }).annotate({ identifier: "SlotView" })

export const ScheduleView = Schema.Struct({
  id: Str,
  name: Str,
  accountIds: Schema.Array(Str),
  timeZone: Str,
  slots: Schema.Array(WeeklySlot),
  paused: Schema.Boolean,
  pausedAt: Schema.NullOr(Time),
  nextSlots: Schema.Array(SlotView).annotate({ description: "The next slot times (taken or not), up to 5" }),
  createdAt: Time,
  updatedAt: Time
}).annotate({ identifier: "Schedule" })
export type ScheduleView = typeof ScheduleView.Type

export const AccountZone = Schema.Struct({
  accountId: Str,
  timeZone: Schema.NullOr(Str).annotate({ description: "The account's own zone; null: the workspace's" }),
  effectiveTimeZone: Str,
  scheduleId: Schema.NullOr(Str)
}).annotate({ identifier: "AccountZone" })

export const Schedules = Schema.Struct({
  timeZone: Str.annotate({ description: "The workspace's time zone" }),
  schedules: Schema.Array(ScheduleView),
  accounts: Schema.Array(AccountZone)
}).annotate({ identifier: "Schedules" })
export type Schedules = typeof Schedules.Type

/** A queued post that a change moved to another slot (or out of the queue: `to` null). */
export const QueueMove = Schema.Struct({
  postId: Str,
  from: Schema.NullOr(Time),
  to: Schema.NullOr(Time),
  local: Schema.NullOr(LocalView)
}).annotate({ identifier: "QueueMove" })
export type QueueMove = typeof QueueMove.Type

export const SchedulesChanged = Schema.Struct({
  ...Schedules.fields,
  moved: Schema.Array(QueueMove).annotate({ description: "Queued posts the change moved, each to its new slot" }),
  released: Schema.Array(QueueMove).annotate({
    description: "Queued posts that left the queue (their schedule or account was removed): they keep their times"
  })
}).annotate({ identifier: "SchedulesChanged" })
export type SchedulesChanged = typeof SchedulesChanged.Type

export const QueuedPost = Schema.Struct({
  postId: Str,
  status: Str,
  accountIds: Schema.Array(Str),
  scheduledFor: Time,
  ...LocalView.fields
}).annotate({ identifier: "QueuedPost" })

export const Queue = Schema.Struct({
  schedule: ScheduleView,
  posts: Schema.Array(QueuedPost).annotate({ description: "Queued posts from now on, in slot order" }),
  nextCursor: Schema.NullOr(Str)
}).annotate({ identifier: "Queue" })
export type Queue = typeof Queue.Type

export const ReorderRequest = Schema.Struct({
  postIds: Schema.Array(Str).annotate({
    description:
      "Queued posts of this schedule in the order wanted: they are laid again from the earliest slot any of them holds"
  })
}).annotate({ identifier: "ReorderRequest" })

export const QueueChanged = Schema.Struct({
  schedule: ScheduleView,
  moved: Schema.Array(QueueMove)
}).annotate({ identifier: "QueueChanged" })
export type QueueChanged = typeof QueueChanged.Type
