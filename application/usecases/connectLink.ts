import { Effect, Option } from "effect"
import type { Actor } from "../../domain/apiKey.ts"
import { fail, invalidFields } from "../../domain/errors.ts"
import { isPlatform, type Platform } from "../../domain/platforms.ts"
import { checkText, describeTextProblem } from "../../domain/text.ts"
import { formatUtc } from "../../domain/time.ts"
import { HeraldConfig } from "../config.ts"
import { Connectors } from "../ports/Connectors.ts"
import { Crypto } from "../ports/Crypto.ts"
import { TokenRepo } from "../ports/TokenRepo.ts"
import { WorkspaceRepo } from "../ports/WorkspaceRepo.ts"
import { now } from "./common.ts"

// A connect link's life before the network answers: made, shown on Herald's start page, bound to the browser that continued it.

const CONNECT_LINK_LIFETIME_MS = 15 * 60 * 1000

export const callbackUrl = (publicUrl: string, platform: Platform) => `${publicUrl}/connect/${platform}/callback`
const formUrl = (publicUrl: string, platform: Platform) => `${publicUrl}/connect/${platform}/form`
/** Herald's own page that names the workspace and who asked before the network's (README "Security"). */
const startUrl = (publicUrl: string, platform: Platform, state: string) =>
  `${publicUrl}/connect/${platform}/start?state=${state}`

/** What a connect link's state remembers until the callback. */
export interface ConnectState {
  readonly platform: Platform
  /** The PKCE verifier the network will ask for with the code. */
  readonly verifier: string | null
  /** Who asked for the link: a key or a person. */
  readonly by: string
  /** The key's name or the person's address, shown on the start page. */
  readonly byName?: string
  /** Where the start page's button goes: the network's consent screen (or Herald's own form). */
  readonly next?: string
}

export const connectorFor = Effect.fnUntraced(function* (platformName: string) {
  const connectors = yield* Connectors
  const connector = isPlatform(platformName) ? connectors.get(platformName) : Option.none()
  if (Option.isNone(connector))
    return yield* Effect.fail(fail("platform_unavailable", { platform: platformName, available: connectors.available }))
  return connector.value
})

/**
 * A browser URL that connects an account of `platform` to the caller's workspace (single use, 15
 * minutes); `params` are what the request named besides the network (Mastodon's instance).
 */
export const connectUrl = Effect.fn("connectUrl")(function* (
  actor: Actor,
  platformName: string,
  params: Readonly<Record<string, string>> = {}
) {
  const connector = yield* connectorFor(platformName)
  const crypto = yield* Crypto
  const config = yield* HeraldConfig
  const at = yield* now
  const state = yield* crypto.token()
  const { url, verifier } = yield* connector.begin({
    state,
    callbackUrl: callbackUrl(config.publicUrl, connector.platform),
    formUrl: formUrl(config.publicUrl, connector.platform),
    params
  })
  const expiresAt = at + CONNECT_LINK_LIFETIME_MS
  const remembered: ConnectState = {
    platform: connector.platform,
    verifier,
    by: actor.kind === "key" ? actor.keyId : `person:${actor.email}`,
    byName: actor.kind === "key" ? actor.name : actor.email,
    next: url
  }
  yield* (yield* TokenRepo).insert({
    hash: yield* crypto.sha256(state),
    kind: "connect",
    workspaceId: actor.workspaceId,
    email: "",
    data: JSON.stringify(remembered),
    createdAt: at,
    expiresAt
  })
  return {
    url: startUrl(config.publicUrl, connector.platform, state),
    platform: connector.platform,
    expiresAt: formatUtc(expiresAt)
  }
})

/** The browser a connect link was continued in: its own random value (a cookie) bound to the link's state. */
const browserBinding = (crypto: Effect.Success<typeof Crypto>, state: string, browser: string) =>
  crypto.sha256(`${state}\n${browser}`)

/** Only the browser that continued from Herald's start page goes on with the link (RFC 9700 section 4.7). */
export const requireContinued = (state: string, browser: string | null) =>
  Effect.gen(function* () {
    const crypto = yield* Crypto
    const bound =
      browser !== null &&
      Option.isSome(
        yield* (yield* TokenRepo).find(yield* browserBinding(crypto, state, browser), "connect_browser", yield* now)
      )
    if (!bound)
      return yield* Effect.fail(
        fail(
          "connect_link_not_continued",
          { fields: ["state"] },
          "This connect link was not continued from Herald's page in this browser: open the link you were given and press Continue."
        )
      )
  })

/**
 * What the start page shows for a connect link (not used up): the workspace it connects to and who
 * asked. A browser signed in to another workspace is refused: its person would connect their account
 * into a workspace that is not theirs.
 */
export const inspectConnectLink = Effect.fn("inspectConnectLink")(function* (
  platformName: string,
  state: string,
  signedInTo: string | null
) {
  const connector = yield* connectorFor(platformName)
  const crypto = yield* Crypto
  const found = yield* (yield* TokenRepo).find(yield* crypto.sha256(state), "connect", yield* now)
  const remembered = Option.map(found, (t) => JSON.parse(t.data ?? "{}") as Partial<ConnectState>)
  if (Option.isNone(found) || Option.isNone(remembered) || remembered.value.platform !== connector.platform)
    return yield* Effect.fail(invalidConnectLink())
  const workspace = yield* (yield* WorkspaceRepo).findById(found.value.workspaceId)
  if (Option.isNone(workspace)) return yield* Effect.fail(invalidConnectLink())
  if (signedInTo !== null && signedInTo !== found.value.workspaceId)
    return yield* Effect.fail(
      fail(
        "connect_workspace_mismatch",
        {},
        `This link connects an account to the workspace "${workspace.value.name}", not to the one this browser is signed in to.`
      )
    )
  const by = remembered.value.by ?? ""
  return {
    platform: connector.platform,
    workspaceName: workspace.value.name,
    askedBy: {
      kind: by.startsWith("key_") ? ("key" as const) : ("person" as const),
      name: remembered.value.byName ?? ""
    },
    next: remembered.value.next ?? "",
    expiresAt: found.value.expiresAt
  }
})

/**
 * The start page's button: binds the link to this browser (its value, kept in a cookie by the host,
 * made here when it has none) and answers where to go next. Only that browser completes the link.
 */
export const continueConnect = Effect.fn("continueConnect")(function* (
  platformName: string,
  state: string,
  signedInTo: string | null,
  browser: string | null
) {
  const link = yield* inspectConnectLink(platformName, state, signedInTo)
  if (link.next === "") return yield* Effect.fail(invalidConnectLink()) // a link made before start pages
  const crypto = yield* Crypto
  const value = browser !== null && /^[A-Za-z0-9]{20,100}$/.test(browser) ? browser : yield* crypto.token()
  const found = yield* (yield* TokenRepo).find(yield* crypto.sha256(state), "connect", yield* now)
  if (Option.isNone(found)) return yield* Effect.fail(invalidConnectLink())
  const binding = yield* browserBinding(crypto, state, value)
  // Continued again in the same browser (a second click, a reload): already bound.
  if (Option.isSome(yield* (yield* TokenRepo).find(binding, "connect_browser", yield* now)))
    return { next: link.next, browser: value, expiresAt: link.expiresAt }
  yield* (yield* TokenRepo).insert({
    hash: binding,
    kind: "connect_browser",
    workspaceId: found.value.workspaceId,
    email: "",
    data: null,
    createdAt: yield* now,
    expiresAt: link.expiresAt
  })
  return { next: link.next, browser: value, expiresAt: link.expiresAt }
})

/**
 * The connect link named by `state`, without using it up (Herald's own connect form shows it first),
 * for the browser that continued it from the start page only.
 */
export const inspectConnectState = Effect.fn("inspectConnectState")(function* (
  platformName: string,
  state: string,
  browser: string | null
) {
  const connector = yield* connectorFor(platformName)
  const crypto = yield* Crypto
  const found = yield* (yield* TokenRepo).find(yield* crypto.sha256(state), "connect", yield* now)
  if (
    Option.isNone(found) ||
    (JSON.parse(found.value.data ?? "{}") as Partial<ConnectState>).platform !== connector.platform
  )
    return yield* Effect.fail(invalidConnectLink())
  yield* requireContinued(state, browser)
  return { platform: connector.platform }
})

/**
 * The connect link a callback or Herald's connect form names (`params.state`), read, not used up, for
 * the browser that continued it only. Its parameters are checked first: a bad one must not cost the
 * person their link.
 */
export const continuedLink = Effect.fnUntraced(function* (
  platform: Platform,
  params: Readonly<Record<string, string>>,
  browser: string | null
) {
  for (const [name, value] of Object.entries(params)) {
    const problem = checkText(value, { kind: "label", max: 4096 })
    if (problem !== null) return yield* Effect.fail(invalidFields([name], describeTextProblem(name, problem)))
  }
  const crypto = yield* Crypto
  const at = yield* now
  const state = params.state ?? ""
  const stateHash = yield* crypto.sha256(state)
  const token = yield* (yield* TokenRepo).find(stateHash, "connect", at)
  const remembered = Option.map(token, (t) => JSON.parse(t.data ?? "{}") as Partial<ConnectState>)
  if (Option.isNone(token) || Option.isNone(remembered) || remembered.value.platform !== platform)
    return yield* Effect.fail(invalidConnectLink())
  yield* requireContinued(state, browser)
  return { state, stateHash, at, token: token.value, remembered: remembered.value }
})

/**
 * Herald's connect form named what the connect link lacked (Mastodon's instance): the connection
 * begins anew with those fields under the same link, and the network's URL comes back to open next.
 * The link is not used up; only what it remembers for the callback changes. Only the browser that
 * continued from the start page may send it: the form is no way around the page naming the workspace.
 */
export const connectWithFormFields = Effect.fn("connectWithFormFields")(function* (
  platformName: string,
  params: Readonly<Record<string, string>>,
  browser: string | null
) {
  const connector = yield* connectorFor(platformName)
  const { state, stateHash, at, token, remembered } = yield* continuedLink(connector.platform, params, browser)
  const tokens = yield* TokenRepo
  const config = yield* HeraldConfig
  const { url, verifier } = yield* connector.begin({
    state,
    callbackUrl: callbackUrl(config.publicUrl, connector.platform),
    formUrl: formUrl(config.publicUrl, connector.platform),
    params
  })
  // The same link, remembering what the callback needs now (the network's verifier).
  if (Option.isNone(yield* tokens.consume(stateHash, "connect", at))) return yield* Effect.fail(invalidConnectLink())
  yield* tokens.insert({ ...token, data: JSON.stringify({ ...remembered, verifier }) })
  return { url }
})

export const invalidConnectLink = () =>
  fail(
    "validation_failed",
    { fields: ["state"] },
    "This connect link is invalid, used or expired; ask for a new one with GET /connect/{platform}."
  )
