import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { disconnectAccount, listAccounts } from "../../../application/usecases/accounts.ts"
import { connectUrl } from "../../../application/usecases/connectLink.ts"
import { listBoards } from "../../../application/usecases/boards.ts"
import { HeraldApi } from "../api.ts"
import { CurrentActor } from "../security.ts"
import { runner } from "./request.ts"

type Services =
  | Effect.Services<ReturnType<typeof connectUrl>>
  | Effect.Services<ReturnType<typeof disconnectAccount>>
  | Effect.Services<ReturnType<typeof listAccounts>>
  | Effect.Services<ReturnType<typeof listBoards>>

export const layer = HttpApiBuilder.group(HeraldApi, "accounts", (handlers) =>
  Effect.gen(function* () {
    const run = yield* runner<Services>()
    return handlers
      .handle("list", () => run(Effect.flatMap(CurrentActor, listAccounts)))
      .handle("connect", ({ params, query }) =>
        run(
          Effect.flatMap(CurrentActor, (actor) =>
            connectUrl(actor, params.platform, query.instance === undefined ? {} : { instance: query.instance })
          )
        )
      )
      .handle("disconnect", ({ params }) =>
        run(Effect.flatMap(CurrentActor, (actor) => disconnectAccount(actor, params.id)))
      )
      .handle("boards", ({ params }) => run(Effect.flatMap(CurrentActor, (actor) => listBoards(actor, params.id))))
  })
)
