import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { requestClaimLink } from "../../../application/usecases/claim.ts"
import { HeraldApi } from "../api.ts"
import { CurrentActor } from "../security.ts"
import { runner } from "./request.ts"

export const layer = HttpApiBuilder.group(HeraldApi, "claim", (handlers) =>
  Effect.gen(function* () {
    const run = yield* runner<Effect.Services<ReturnType<typeof requestClaimLink>>>()
    return handlers.handle("claimLink", () => run(Effect.flatMap(CurrentActor, requestClaimLink)))
  })
)
