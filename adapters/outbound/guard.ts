import { lookup } from "node:dns"
import { isIP, type LookupFunction } from "node:net"
import { Effect, Schema } from "effect"
import { type AddressKind, classify } from "./addresses.ts"

/** Why a host someone else named may not be reached. */
export const RefusalKind = Schema.Literals(["scheme", "credentials", "unresolvable", "private", "loopback"])

/** The address guard said no: the URL's scheme, its credentials, or where its host points. */
export class AddressRefused extends Schema.TaggedError<AddressRefused>()("AddressRefused", {
  kind: RefusalKind,
  host: Schema.String,
  message: Schema.String
}) {}

const refused = (kind: AddressKind, host: string, address: string) =>
  new AddressRefused({
    kind: kind === "loopback" ? "loopback" : "private",
    host,
    message:
      kind === "loopback"
        ? `${host} is this machine (loopback, ${address}); HERALD_ALLOW_LOOPBACK=true lets it through for development.`
        : `${host} is a private, link-local or reserved address (${address}).`
  })

/** The refusal of one address `host` resolved to, or null when it may be reached. */
export const judge = (host: string, address: string, allowLoopback: boolean): AddressRefused | null => {
  const kind = classify(address)
  return kind === "public" || (kind === "loopback" && allowLoopback) ? null : refused(kind, host, address)
}

/**
 * The lookup a guarded socket connects with: the name is resolved once, every address it gives is
 * judged, and the socket connects to those very addresses (no second resolution: no DNS rebinding).
 */
export const guardedLookup =
  (allowLoopback: boolean): LookupFunction =>
  (hostname, options, callback) =>
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      const fail = (e: NodeJS.ErrnoException) =>
        options.all ? callback(e, []) : (callback as (e: NodeJS.ErrnoException, a: string, f: number) => void)(e, "", 0)
      if (error) return fail(error)
      const no = addresses.map((a) => judge(hostname, a.address, allowLoopback)).find((r) => r !== null)
      if (no !== undefined) return fail(no as unknown as NodeJS.ErrnoException)
      if (addresses.length === 0)
        return fail(Object.assign(new Error(`${hostname} does not resolve.`), { code: "ENOTFOUND" }))
      if (options.all) return callback(null, addresses)
      callback(null, addresses[0]!.address, addresses[0]!.family)
    })

/** A literal IP host (brackets allowed) judged before any socket is opened (a literal is never looked up). */
export const judgeLiteral = (hostname: string, allowLoopback: boolean): AddressRefused | null => {
  const host = hostname.replace(/^\[|\]$/g, "")
  return isIP(host) === 0 ? null : judge(host, host, allowLoopback)
}

/** A URL that passed the guard, and whether its host is this machine only (loopback let through). */
export interface Checked {
  readonly url: URL
  readonly loopbackOnly: boolean
}

/**
 * A URL checked ahead of use (a webhook URL at registration): http(s), no credentials, and every address
 * its host resolves to allowed. The call itself is judged again when it connects.
 */
export const checkUrl = (raw: string, allowLoopback: boolean): Effect.Effect<Checked, AddressRefused> =>
  Effect.gen(function* () {
    const url = URL.parse(raw)
    if (url === null || (url.protocol !== "https:" && url.protocol !== "http:"))
      return yield* new AddressRefused({ kind: "scheme", host: url?.host ?? "", message: "The URL must be http(s)." })
    if (url.username !== "" || url.password !== "")
      return yield* new AddressRefused({
        kind: "credentials",
        host: url.host,
        message: "The URL must not carry credentials."
      })
    const host = url.hostname.replace(/^\[|\]$/g, "")
    const addresses =
      isIP(host) !== 0
        ? [host]
        : yield* Effect.callback<ReadonlyArray<string>, AddressRefused>((resume) =>
            lookup(host, { all: true, verbatim: true }, (error, list) =>
              resume(
                error || list.length === 0
                  ? Effect.fail(
                      new AddressRefused({ kind: "unresolvable", host, message: `The host ${host} does not resolve.` })
                    )
                  : Effect.succeed(list.map((a) => a.address))
              )
            )
          )
    // The strictest answer wins: a name that points anywhere inside is refused whole.
    const refusals = addresses.flatMap((a) => judge(host, a, allowLoopback) ?? [])
    const refusal = refusals.find((r) => r.kind === "private") ?? refusals[0]
    if (refusal !== undefined) return yield* refusal
    return { url, loopbackOnly: addresses.every((a) => classify(a) === "loopback") }
  })
