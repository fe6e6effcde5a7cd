import { Context, type Effect, type Option } from "effect"
import type { Media } from "../../domain/media.ts"

export interface MediaRepoShape {
  readonly insert: (media: Media) => Effect.Effect<void>
  readonly findById: (workspaceId: string, id: string) => Effect.Effect<Option.Option<Media>>
  /** The ones of `ids` that belong to the workspace, in no particular order. */
  readonly findByIds: (workspaceId: string, ids: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<Media>>
  readonly countByWorkspace: (workspaceId: string) => Effect.Effect<number>
  /** Up to `limit` uploads of a workspace, oldest first (to remove their bytes before the workspace goes). */
  readonly listByWorkspace: (workspaceId: string, limit: number) => Effect.Effect<ReadonlyArray<Media>>
  readonly listExpired: (now: number, limit: number) => Effect.Effect<ReadonlyArray<Media>>
  readonly delete: (id: string) => Effect.Effect<void>
}

export class MediaRepo extends Context.Service<MediaRepo, MediaRepoShape>()("herald/MediaRepo") {}
