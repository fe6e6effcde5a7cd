import { Clock, Effect, Option, Schema } from "effect"
import type { Account } from "../../domain/account.ts"
import { AccountRepo } from "../ports/AccountRepo.ts"
import { Connectors, type GrantRevoked, type NetworkCredentials } from "../ports/Connectors.ts"
import type { PublishError } from "../ports/Publishers.ts"
import {
  CredentialStore,
  type GrantLifetime,
  type SealedUpdate,
  type StoredCredentials
} from "../ports/CredentialStore.ts"
import { TokenVault } from "../ports/TokenVault.ts"
import { readCache } from "../readCache.ts"
import { Store } from "../ports/Store.ts"
import { accountEvent, emit } from "./webhooks/events.ts"
import { reconnectMail } from "../../domain/messages.ts"
import { platformNames } from "../../domain/platforms.ts"
import { HeraldConfig } from "../config.ts"
import { WorkspaceRepo } from "../ports/WorkspaceRepo.ts"
import { trySend } from "./mail.ts"
import { Mailer } from "../ports/Mailer.ts"

/** Access tokens are renewed this long before they end, so a call never starts with one about to expire. */
export const RENEW_AHEAD_MS = 5 * 60 * 1000

/** Whether the stored refresh token can still renew the access token at `at`. */
const canRenew = (credentials: NetworkCredentials, at: number) =>
  credentials.refreshToken !== null && (credentials.refreshExpiresAt == null || credentials.refreshExpiresAt > at)

/**
 * When the account's grant ends for good, so that only a person reconnecting it lets Herald post
 * again: the access token's end when nothing can renew it (no refresh token, or a network Herald
 * cannot renew with), the refresh token's end when the network gave one (LinkedIn's fixed 365 days);
 * null when it is renewed for as long as the person allows.
 */
export const grantEndsAt = (
  lifetime: {
    readonly expiresAt: number | null
    readonly refreshable: boolean
    readonly refreshExpiresAt: number | null
  },
  renewable: boolean
): number | null => (!renewable || !lifetime.refreshable ? lifetime.expiresAt : lifetime.refreshExpiresAt)

/** The account's grant is gone (refused refresh, revoked, no refresh token left): a person must reconnect it. */
export class NeedsReconnection extends Schema.TaggedError<NeedsReconnection>()("NeedsReconnection", {
  message: Schema.String
}) {}

const open = (stored: StoredCredentials) =>
  Effect.flatMap(TokenVault, (vault) =>
    Effect.map(vault.open(stored.sealed), (plain) => JSON.parse(plain) as NetworkCredentials)
  )

/** Sealed for the store, with the grant's lifetime in clear beside it. */
const sealed = (credentials: NetworkCredentials) =>
  Effect.flatMap(TokenVault, (vault) =>
    Effect.map(
      vault.seal(JSON.stringify(credentials)),
      (text): SealedUpdate => ({
        sealed: text,
        expiresAt: credentials.expiresAt,
        refreshable: credentials.refreshToken !== null,
        refreshExpiresAt: credentials.refreshExpiresAt ?? null
      })
    )
  )

/**
 * Stores an account's credentials from a connection. A network that sends no refresh token on a
 * reconnection (it gives one only at first consent) keeps the stored one: it is never lost.
 */
export const storeCredentials = Effect.fn("storeCredentials")(function* (
  accountId: string,
  credentials: NetworkCredentials
) {
  const store = yield* CredentialStore
  const before = yield* store.get(accountId)
  const kept =
    credentials.refreshToken === null && Option.isSome(before)
      ? yield* Effect.map(
          Effect.option(open(before.value)),
          Option.flatMap((old) => Option.fromNullishOr(old.refreshToken))
        )
      : Option.none<string>()
  yield* store.put(
    accountId,
    yield* sealed(Option.isSome(kept) ? { ...credentials, refreshToken: kept.value } : credentials)
  )
})

/** The owner hears of it by e-mail, with a link to the app's accounts page (where reconnecting is one button). */
const tellOwner = Effect.fnUntraced(function* (account: Account) {
  // Hosts that send no mail (some tests, tools) just skip it: the account list says it too.
  const mailer = yield* Effect.serviceOption(Mailer)
  if (Option.isNone(mailer)) return
  const workspace = yield* (yield* WorkspaceRepo).findById(account.workspaceId)
  if (Option.isNone(workspace) || !workspace.value.claimed) return
  const config = yield* HeraldConfig
  yield* trySend(
    workspace.value.ownerEmail,
    reconnectMail(workspace.value.locale, {
      network: platformNames[account.platform],
      username: account.username,
      link: `${config.publicUrl}/app/accounts`
    })
  ).pipe(Effect.provideService(Mailer, mailer.value))
})

/** Marks the account for reconnection: no call goes to its network until a person reconnects it. */
export const markNeedsReconnection = Effect.fn("markNeedsReconnection")(function* (account: Account, why: string) {
  const at = yield* Clock.currentTimeMillis
  // The change and its event together; of callers racing on one account, the one that changes it reports it.
  const changed = yield* (yield* Store).transaction(
    Effect.gen(function* () {
      if (!(yield* (yield* AccountRepo).setStatus(account.workspaceId, account.id, "needs_reconnection", "connected")))
        return false
      yield* emit([yield* accountEvent("account.needs_reconnection", { ...account, status: "needs_reconnection" }, at)])
      return true
    })
  )
  yield* (yield* readCache).forgetAccounts(account.workspaceId)
  if (changed) yield* tellOwner(account)
  yield* Effect.logWarning("account needs reconnection").pipe(
    Effect.annotateLogs({ account: account.id, platform: account.platform, why })
  )
  return new NeedsReconnection({ message: why })
})

/**
 * The account's credentials, usable now: renewed ahead of expiry, or at once with `force` (after the
 * network answered 401). Renewal runs under the account's lock in the store, so concurrent callers
 * (several schedulers) renew once and all get the newest tokens. A refused renewal, or an expired
 * token with no way to renew it, marks the account for reconnection. None for networks that use no
 * credentials (the sandbox).
 */
export const credentialsFor = Effect.fn("credentialsFor")(function* (
  account: Account,
  options: { readonly force: boolean } = { force: false }
) {
  const store = yield* CredentialStore
  const stored = yield* store.get(account.id)
  if (Option.isNone(stored)) return Option.none<NetworkCredentials>()
  const current = yield* Effect.catchTag(open(stored.value), "VaultSealBroken", (e) =>
    Effect.flatMap(markNeedsReconnection(account, e.message), Effect.fail)
  )
  const at = yield* Clock.currentTimeMillis
  const fresh = current.expiresAt === null || current.expiresAt - at > RENEW_AHEAD_MS
  if (fresh && !options.force) return Option.some(current)
  const connector = Option.flatMap(Option.some(yield* Connectors), (c) => c.get(account.platform))
  const refresh = Option.isSome(connector) ? connector.value.refresh : undefined
  if (refresh === undefined || !canRenew(current, at)) {
    // Nothing to renew with: usable until it is about to end (no call starts with a dying token), then only a person can reconnect it.
    if (current.expiresAt !== null && current.expiresAt - at <= RENEW_AHEAD_MS)
      return yield* Effect.fail(
        yield* markNeedsReconnection(
          account,
          current.refreshToken === null
            ? "The access token ends and the network gave no way to renew it: connect the account again."
            : "The network's refresh token has ended: connect the account again."
        )
      )
    return Option.some(current)
  }
  const renewed = yield* store
    .renew(account.id, stored.value.version, (latest) =>
      Effect.gen(function* () {
        const base = yield* open(latest)
        const next = yield* refresh(base)
        // A network that does not rotate its refresh token answers without one: keep ours.
        return yield* sealed(next.refreshToken === null ? { ...next, refreshToken: base.refreshToken } : next)
      })
    )
    .pipe(
      Effect.catchTags({
        GrantRevoked: (e: GrantRevoked) => Effect.flatMap(markNeedsReconnection(account, e.message), Effect.fail),
        VaultSealBroken: (e) => Effect.flatMap(markNeedsReconnection(account, e.message), Effect.fail)
      })
    )
  return Option.some(
    yield* Effect.catchTag(open(renewed), "VaultSealBroken", (e) =>
      Effect.flatMap(markNeedsReconnection(account, e.message), Effect.fail)
    )
  )
})

/** A lifetime the store could not tell (credentials stored before it kept one in clear): their sealed tokens say. */
const openedLifetime = Effect.fnUntraced(function* (accountId: string) {
  const stored = yield* (yield* CredentialStore).get(accountId)
  if (Option.isNone(stored)) return Option.none<GrantLifetime>()
  const current = yield* Effect.option(open(stored.value))
  return Option.map(
    current,
    (c): GrantLifetime => ({
      expiresAt: c.expiresAt,
      refreshable: c.refreshToken !== null,
      refreshExpiresAt: c.refreshExpiresAt ?? null
    })
  )
})

/**
 * When each account's grant ends for good (`grantEndsAt`), from the lifetimes the store keeps in clear
 * (one read, no token opened); accounts whose grant does not end, or that hold no credentials, are absent.
 */
export const grantEnds = Effect.fn("grantEnds")(function* (accounts: ReadonlyArray<Account>) {
  const lifetimes = yield* (yield* CredentialStore).lifetimes(accounts.map((a) => a.id))
  const connectors = yield* Connectors
  const ends = new Map<string, number>()
  for (const account of accounts) {
    const stored = lifetimes.get(account.id)
    if (stored === undefined) continue
    const lifetime = stored.refreshable !== null ? Option.some(stored) : yield* openedLifetime(account.id)
    if (Option.isNone(lifetime)) continue
    const renewable = Option.isSome(
      Option.flatMap(connectors.get(account.platform), (c) => Option.fromNullishOr(c.refresh))
    )
    const end = grantEndsAt({ ...lifetime.value, refreshable: lifetime.value.refreshable === true }, renewable)
    if (end !== null) ends.set(account.id, end)
  }
  return ends as ReadonlyMap<string, number>
})

/**
 * The one place a network's "unauthorized" is handled, for every network and every call that acts
 * as an account: `call` runs with `credentials` (fresh from `credentialsFor`, renewed ahead of
 * expiry); refused (Unauthorized), they are renewed at once and the call made once more; refused
 * again, or Revoked outright, the account needs reconnecting and no further call is made.
 */
export const authorized = <A, R>(
  account: Account,
  credentials: NetworkCredentials | null,
  call: (credentials: NetworkCredentials | null) => Effect.Effect<A, PublishError, R>
) => {
  const reconnect = (e: PublishError) => Effect.flatMap(markNeedsReconnection(account, e.message), Effect.fail)
  return call(credentials).pipe(
    Effect.catchReasons("PublishError", {
      Revoked: (_, e) => reconnect(e),
      Unauthorized: (_, e) =>
        credentials === null
          ? reconnect(e)
          : Effect.flatMap(credentialsFor(account, { force: true }), (renewed) =>
              call(Option.getOrNull(renewed)).pipe(
                Effect.catchReasons("PublishError", {
                  Revoked: (_, again) => reconnect(again),
                  Unauthorized: (_, again) => reconnect(again)
                })
              )
            )
    })
  )
}
