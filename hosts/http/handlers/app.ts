import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { approvalQueue } from "../../../application/usecases/approvals.ts"
import { HeraldApi } from "../api.ts"
import { CurrentActor } from "../security.ts"
import { runner } from "./request.ts"

type Services = Effect.Services<ReturnType<typeof approvalQueue>>

export const layer = HttpApiBuilder.group(HeraldApi, "app", (handlers) =>
  Effect.gen(function* () {
    const run = yield* runner<Services>()
    return handlers.handle("approvals", () => run(Effect.flatMap(CurrentActor, approvalQueue)))
  })
)
