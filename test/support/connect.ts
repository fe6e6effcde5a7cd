import { Effect } from "effect"
import { completeConnect } from "../../application/usecases/completeConnect.ts"
import { connectUrl, continueConnect } from "../../application/usecases/connectLink.ts"
import type { Actor } from "../../domain/apiKey.ts"

/** A connect link followed as a browser does: Herald's start page continued, then the network's answer; the accounts made. */
export const connectInBrowser = (actor: Actor, platform: string, params: Readonly<Record<string, string>> = {}) =>
  Effect.gen(function* () {
    const { url } = yield* connectUrl(actor, platform)
    const state = new URL(url).searchParams.get("state")!
    const { browser } = yield* continueConnect(platform, state, null, null)
    return yield* completeConnect(platform, { state, ...params }, browser)
  })
