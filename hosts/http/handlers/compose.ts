import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { composeAdvice } from "../../../application/usecases/posts/composeAdvice.ts"
import { HeraldApi } from "../api.ts"
import { CurrentActor } from "../security.ts"
import { runner } from "./request.ts"

type Services = Effect.Services<ReturnType<typeof composeAdvice>>

export const layer = HttpApiBuilder.group(HeraldApi, "compose", (handlers) =>
  Effect.gen(function* () {
    const run = yield* runner<Services>()
    return handlers.handle("advice", ({ payload }) =>
      run(Effect.flatMap(CurrentActor, (actor) => composeAdvice(actor, payload)))
    )
  })
)
