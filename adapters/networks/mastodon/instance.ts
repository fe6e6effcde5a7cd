import { lookup } from "node:dns/promises"
import { Effect, Schema } from "effect"
import { classify } from "./addresses.ts"

/** An instance as Herald addresses it: its origin (https://host[:port]) and its host, lower case. */
export interface Instance {
  readonly origin: string
  readonly host: string
}

/** The instance a person named cannot be used: not a domain or URL, or an address Herald does not call. */
export class InstanceRefused extends Schema.TaggedError<InstanceRefused>()("InstanceRefused", {
  message: Schema.String
}) {}

const hostname = (host: string) => host.replace(/:\d+$/, "").replace(/^\[|\]$/g, "")

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

/**
 * Resolves the instance's host and refuses it when any address it names is private or reserved (or
 * loopback, unless allowed): a person names the instance, so Herald must not be led into its own network.
 */
export const guardInstance = (instance: Instance, allowLoopback: boolean): Effect.Effect<void, InstanceRefused> =>
  Effect.gen(function* () {
    const host = hostname(instance.host)
    const addresses = yield* Effect.tryPromise({
      try: () => lookup(host, { all: true, verbatim: true }),
      catch: () => new InstanceRefused({ message: `${instance.host} could not be found (no DNS record).` })
    })
    for (const { address } of addresses) {
      const kind = classify(address)
      if (kind === "public" || (kind === "loopback" && allowLoopback)) continue
      return yield* new InstanceRefused({
        message: `${instance.host} points at a ${kind} address (${address}); Herald only calls instances on the public internet.`
      })
    }
  })
