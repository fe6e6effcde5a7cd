import { Effect } from "effect"
import { WorkspaceRepo } from "../ports/WorkspaceRepo.ts"
import { now } from "./common.ts"

/**
 * Deletes unclaimed workspaces whose 7 days are over (with their keys and data) and the records of
 * expired uploads. Blob bytes of expired uploads are removed by the media sweeper.
 */
export const sweepExpired = Effect.fn("sweepExpired")(function* (batch: number) {
  const at = yield* now
  const workspaces = yield* WorkspaceRepo
  const expired = yield* workspaces.listExpiredUnclaimed(at, batch)
  for (const ws of expired) yield* workspaces.delete(ws.id)
  return { workspaces: expired.length }
})

