import { Context, type Effect } from "effect"

export interface UsageCounterShape {
  /** Adds one post to the workspace's month (`YYYY-MM`, UTC) and returns the new count. */
  readonly increment: (workspaceId: string, month: string) => Effect.Effect<number>
  readonly current: (workspaceId: string, month: string) => Effect.Effect<number>
}

export class UsageCounter extends Context.Service<UsageCounter, UsageCounterShape>()("herald/UsageCounter") {}
