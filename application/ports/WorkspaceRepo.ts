import { Context, type Effect, type Option } from "effect"
import type { Workspace } from "../../domain/workspace.ts"

export interface WorkspaceRepoShape {
  /** Stores a new workspace; fails with `EmailTaken` when the owner address already has one. */
  readonly insert: (workspace: Workspace) => Effect.Effect<void, EmailTaken>
  readonly findById: (id: string) => Effect.Effect<Option.Option<Workspace>>
  readonly findByEmail: (email: string) => Effect.Effect<Option.Option<Workspace>>
  readonly update: (workspace: Workspace) => Effect.Effect<void>
  /** Inside a transaction: holds the workspace until it ends, so quota checks on it run one at a time. */
  readonly lock: (id: string) => Effect.Effect<void>
  /** Unclaimed workspaces whose lifetime ended at or before `now`. */
  readonly listExpiredUnclaimed: (now: number, limit: number) => Effect.Effect<ReadonlyArray<Workspace>>
  /** Deletes the workspace and everything it owns (keys, tokens, accounts, media records, posts). */
  readonly delete: (id: string) => Effect.Effect<void>
  /** Workspaces created in [from, to), for the daily sign-up capacity. */
  readonly countCreatedBetween: (from: number, to: number) => Effect.Effect<number>
}

export class EmailTaken {
  readonly _tag = "EmailTaken"
}

export class WorkspaceRepo extends Context.Service<WorkspaceRepo, WorkspaceRepoShape>()("herald/WorkspaceRepo") {}
