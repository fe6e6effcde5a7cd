import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { createKey, listKeys, revokeKey } from "../../../application/usecases/keys.ts"
import { HeraldApi } from "../api.ts"
import { CurrentActor } from "../security.ts"
import { json, runner } from "./request.ts"

type Services =
  | Effect.Services<ReturnType<typeof createKey>>
  | Effect.Services<ReturnType<typeof listKeys>>
  | Effect.Services<ReturnType<typeof revokeKey>>

export const layer = HttpApiBuilder.group(HeraldApi, "keys", (handlers) =>
  Effect.gen(function* () {
    const run = yield* runner<Services>()
    return handlers
      .handle("list", () => run(Effect.flatMap(CurrentActor, listKeys)))
      .handle("create", ({ payload }) =>
        run(Effect.flatMap(CurrentActor, (actor) => Effect.map(createKey(actor, payload), (body) => json(body, 201))))
      )
      .handle("revoke", ({ params }) => run(Effect.flatMap(CurrentActor, (actor) => revokeKey(actor, params.id))))
  })
)
