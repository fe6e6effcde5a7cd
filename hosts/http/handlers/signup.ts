import { Effect } from "effect"
import { HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { HttpSettings } from "../../../application/config.ts"
import { signUp } from "../../../application/usecases/signup.ts"
import { HeraldApi } from "../api.ts"
import { clientBucket } from "../clientAddress.ts"
import { header, json, runner } from "./request.ts"

export const layer = HttpApiBuilder.group(HeraldApi, "signup", (handlers) =>
  Effect.gen(function* () {
    const run = yield* runner<Effect.Services<ReturnType<typeof signUp>>>()
    const client = clientBucket(yield* HttpSettings)
    return handlers.handle("signup", ({ payload }) =>
      run(
        Effect.gen(function* () {
          const result = yield* signUp({
            body: payload,
            ip: client(yield* HttpServerRequest.HttpServerRequest),
            acceptLanguage: yield* header("accept-language")
          })
          return json(result.body, result.status)
        })
      )
    )
  })
)
