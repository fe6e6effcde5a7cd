import { Effect } from "effect"
import { HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { disconnectAccount, offeredNetworks } from "../../../application/usecases/accounts.ts"
import { accountGrants } from "../../../application/usecases/accountGrants.ts"
import { approvalQueue } from "../../../application/usecases/approvals.ts"
import { listSessions, revokeSession } from "../../../application/usecases/sessions.ts"
import { getWorkspaceSettings, updateWorkspaceSettings } from "../../../application/usecases/workspaceSettings.ts"
import { HeraldApi } from "../api.ts"
import { CurrentActor, SESSION_COOKIE } from "../security.ts"
import { json, runner } from "./request.ts"

type Services =
  | Effect.Services<ReturnType<typeof approvalQueue>>
  | Effect.Services<ReturnType<typeof accountGrants>>
  | Effect.Services<ReturnType<typeof offeredNetworks>>
  | Effect.Services<ReturnType<typeof disconnectAccount>>
  | Effect.Services<ReturnType<typeof updateWorkspaceSettings>>
  | Effect.Services<ReturnType<typeof listSessions>>

export const layer = HttpApiBuilder.group(HeraldApi, "app", (handlers) =>
  Effect.gen(function* () {
    const run = yield* runner<Services>()
    return handlers
      .handle("approvals", () => run(Effect.flatMap(CurrentActor, approvalQueue)))
      .handle("networks", () => run(offeredNetworks()))
      .handle("accountGrants", () => run(Effect.flatMap(CurrentActor, accountGrants)))
      .handle("disconnect", ({ params }) =>
        run(Effect.flatMap(CurrentActor, (actor) => disconnectAccount(actor, params.id)))
      )
      .handle("workspace", () => run(Effect.flatMap(CurrentActor, getWorkspaceSettings)))
      .handle("updateWorkspace", ({ payload }) =>
        run(
          Effect.flatMap(CurrentActor, (actor) =>
            Effect.map(updateWorkspaceSettings(actor, payload), (body) => json(body))
          )
        )
      )
      .handle("sessions", () =>
        run(
          Effect.gen(function* () {
            const token = (yield* HttpServerRequest.HttpServerRequest).cookies[SESSION_COOKIE] ?? ""
            return yield* listSessions(yield* CurrentActor, token)
          })
        )
      )
      .handle("revokeSession", ({ params }) =>
        run(Effect.flatMap(CurrentActor, (actor) => revokeSession(actor, params.id)))
      )
  })
)
