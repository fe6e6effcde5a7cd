import { Effect, Exit } from "effect"
import { TestClock } from "effect/testing"
import * as Telegram from "../../../adapters/networks/telegram/adapter.ts"
import type { Network } from "../../../application/ports/Network.ts"
import type { Connection, NetworkCredentials } from "../../../application/ports/Connectors.ts"
import type { PublishError, PublishRequest } from "../../../application/ports/Publishers.ts"
import * as Harness from "../shared/harness.ts"
import type { FakeBotApi } from "./fakeBotApi.ts"

export { publishedOf, processingOf, T0 } from "../shared/harness.ts"

export const CALLBACK = Harness.callbackFor("telegram")

/** The network on the stand-in, with a memory blob store for uploads. */
export const telegramOn = (fake: FakeBotApi) =>
  Harness.onMemoryBlobs((blobs) => Telegram.make({ apiUrl: fake.origin }, blobs))

/** Herald's form sent: the bot's token and the chat. */
export const connectWith = (network: Network, botToken: string, chat: string) =>
  network.connector.complete({ params: { state: "st", botToken, chat }, callbackUrl: CALLBACK, verifier: null })

export const request = (connection: Connection, fields: Partial<PublishRequest> = {}): PublishRequest =>
  Harness.publishRequest(
    Harness.accountOf("telegram", "acc_t1", connection),
    connection.credentials as NetworkCredentials,
    fields
  )

export const run = <A, E>(effect: Effect.Effect<A, E>) =>
  Effect.runPromise(effect.pipe(Effect.provide(TestClock.layer())) as Effect.Effect<A, E>)

/** The failure an exit carries (a test of a refusal). */
export const failureOf = <E>(exit: Exit.Exit<unknown, E>): E => {
  if (Exit.isSuccess(exit)) throw new Error("expected a failure")
  const reason = exit.cause.reasons.find((r) => r._tag === "Fail")
  if (reason === undefined || reason._tag !== "Fail") throw new Error(`not a failure: ${String(exit.cause)}`)
  return reason.error
}

export type { PublishError }
