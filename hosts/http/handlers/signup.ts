import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { signUp } from "../../../application/usecases/signup.ts"
import { HeraldApi } from "../api.ts"
import { clientIp, header, json, rawJson, runner } from "./request.ts"

export const layer = HttpApiBuilder.group(HeraldApi, "signup", (handlers) =>
  Effect.gen(function* () {
    const run = yield* runner<Effect.Services<ReturnType<typeof signUp>>>()
    return handlers.handle("signup", () =>
      run(Effect.gen(function* () {
        const result = yield* signUp({ body: yield* rawJson, ip: yield* clientIp, acceptLanguage: yield* header("accept-language") })
        return json(result.body, result.status)
      }))
    )
  })
)
