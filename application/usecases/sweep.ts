import { Effect } from "effect"
import { MediaRepo } from "../ports/MediaRepo.ts"
import { WorkspaceRepo } from "../ports/WorkspaceRepo.ts"
import { now } from "./common.ts"
import { removeMedia } from "./media/sweep.ts"

const MEDIA_BATCH = 100

/** Removes every upload of a workspace, bytes first; false when some bytes could not be removed yet. */
const removeAllMedia = Effect.fnUntraced(function* (workspaceId: string) {
  const repo = yield* MediaRepo
  while (true) {
    const batch = yield* repo.listByWorkspace(workspaceId, MEDIA_BATCH)
    if (batch.length === 0) return true
    for (const m of batch) if (!(yield* removeMedia(m))) return false
  }
})

/**
 * Deletes unclaimed workspaces whose 7 days are over, with their keys and data. Their uploads' bytes
 * go first; a workspace whose bytes cannot be removed now (storage trouble) waits for the next sweep,
 * so no file is left without a record pointing at it.
 */
export const sweepExpired = Effect.fn("sweepExpired")(function* (batch: number) {
  const at = yield* now
  const workspaces = yield* WorkspaceRepo
  const expired = yield* workspaces.listExpiredUnclaimed(at, batch)
  let deleted = 0
  for (const ws of expired) {
    if (!(yield* removeAllMedia(ws.id))) continue
    yield* workspaces.delete(ws.id)
    deleted++
  }
  return { workspaces: deleted }
})
