import { Effect, Schema } from "effect"
import { classify } from "../../outbound/addresses.ts"
import { Outbound } from "../../outbound/client.ts"
import { checkUrl } from "../../outbound/guard.ts"

/** An instance as Herald addresses it: its origin (https://host[:port]) and its host, lower case. */
export interface Instance {
  readonly origin: string
  readonly host: string
}

/** The instance a person named cannot be used: not a domain or URL, or an address Herald does not call. */
export class InstanceRefused extends Schema.TaggedError<InstanceRefused>()("InstanceRefused", {
  message: Schema.String,
  /** Its name did not resolve now: for an account already connected, maybe a passing DNS failure. */
  unresolvable: Schema.optional(Schema.Boolean)
}) {}

/**
 * The instance named by `input`: a domain (mastodon.social), a URL (https://mastodon.social/), or a
 * handle's domain part (@alice@mastodon.social). Plain http only for loopback hosts, when allowed.
 */
export const parseInstance = (input: string, allowLoopback: boolean): Instance | InstanceRefused => {
  const trimmed = input.trim().replace(/^@?[^@\s/]+@(?=[^@\s/]+$)/, "")
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`
  const refused = (why: string) =>
    new InstanceRefused({ message: `"${input.slice(0, 200)}" is not a Mastodon instance Herald can use: ${why}` })
  if (trimmed === "" || !URL.canParse(withScheme)) return refused("name its domain, like mastodon.social.")
  const url = new URL(withScheme)
  if (url.username !== "" || url.password !== "" || url.search !== "" || url.hash !== "" || url.pathname !== "/")
    return refused("name the domain alone, without a path, query or credentials.")
  if (!url.hostname.includes(".") && !url.hostname.startsWith("[") && url.hostname !== "localhost")
    return refused("name a domain with a dot in it.")
  const local = url.hostname === "localhost" || classify(url.hostname) === "loopback"
  if (url.protocol === "http:" && !(local && allowLoopback)) return refused("Herald talks to instances over https.")
  if (url.protocol !== "https:" && url.protocol !== "http:") return refused("Herald talks to instances over https.")
  return { origin: url.origin, host: url.host }
}

/** Whether instances on this machine may be called (HERALD_ALLOW_LOOPBACK, as the outbound client was given it). */
export const loopbackAllowed = Effect.map(Outbound, (outbound) => outbound.settings.allowLoopback)

/**
 * The instance's name judged by the one address guard ahead of any call, so the person hears why at
 * once: a person names the instance, so Herald must not be led into its own network. Every call to it
 * is judged again when its socket connects (`named: true`), whatever the name points at by then.
 */
export const guardInstance = (instance: Instance): Effect.Effect<void, InstanceRefused> =>
  Effect.gen(function* () {
    const allowLoopback = yield* loopbackAllowed
    yield* checkUrl(instance.origin, allowLoopback).pipe(
      Effect.mapError((refused) =>
        refused.kind === "unresolvable"
          ? new InstanceRefused({ message: `${instance.host} could not be found (no DNS record).`, unresolvable: true })
          : new InstanceRefused({
              message: `${instance.host} points at a ${refused.kind === "loopback" ? "loopback" : "private"} address; Herald only calls instances on the public internet (${refused.message})`
            })
      )
    )
  })
