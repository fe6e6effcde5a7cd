import { Effect, Redacted } from "effect"
import { isSuccess, jsonOf, type HttpReply, retryAfterMs, send } from "../shared/http.ts"
import { isThrottled, metaProblem } from "./errors.ts"
import { makeOAuth2Client } from "../shared/oauth2.ts"
import { callbackRefusal, OAuthRefused, OAuthUnavailable } from "../shared/oauth2Errors.ts"

/**
 * Meta's logins (Facebook, Instagram, Threads). The authorize URL is plain OAuth 2.0 (no PKCE,
 * comma-separated scopes) and comes from the shared client; the token endpoints are Meta's own
 * (answers without `token_type`, Instagram's in a `data` array, exchanges and renewals as GETs
 * with the token in the query), so they are read here.
 */
export interface MetaLogin {
  readonly clientId: string
  readonly clientSecret: Redacted.Redacted<string>
  readonly authorizeUrl: string
  readonly tokenUrl: string
  readonly scopes: ReadonlyArray<string>
  readonly timeoutMs: number
  /** Facebook Login for Business: a saved configuration whose permissions the dialog asks for, sent instead of scope. */
  readonly configId?: string | undefined
}

/** What a Meta token endpoint gave. */
export interface MetaToken {
  readonly accessToken: string
  /** Null when Meta named no lifetime (a Page token from a long-lived user token does not expire). */
  readonly expiresInSeconds: number | null
  /** Instagram Login and Threads name the user the code was for. */
  readonly userId: string | null
}

const stringOf = (value: unknown) =>
  typeof value === "string" && value !== "" ? value : typeof value === "number" ? String(value) : null

/** Meta's token answers: `{access_token, expires_in?, user_id?}` or Instagram's `{data:[{access_token, user_id, permissions}]}`. */
const tokenOf = (reply: HttpReply): MetaToken | null => {
  const body = jsonOf(reply) as Record<string, any> | undefined
  const t = Array.isArray(body?.data) ? body.data[0] : body
  const accessToken = stringOf(t?.access_token)
  if (accessToken === null) return null
  const expires = Number(t.expires_in)
  return {
    accessToken,
    expiresInSeconds: Number.isFinite(expires) && expires > 0 ? expires : null,
    userId: stringOf(t.user_id)
  }
}

/** A token endpoint's answer: the token, a refusal (the grant's end, with Meta's words), or "try later". */
const readToken = (network: string, reply: HttpReply): Effect.Effect<MetaToken, OAuthRefused | OAuthUnavailable> => {
  if (isSuccess(reply)) {
    const token = tokenOf(reply)
    return token === null
      ? Effect.fail(new OAuthUnavailable({ message: `${network}'s token answer could not be read.` }))
      : Effect.succeed(token)
  }
  const problem = metaProblem(reply)
  if (reply.status >= 500 || isThrottled(reply, problem) || problem?.transient === true)
    return Effect.fail(
      new OAuthUnavailable({
        message: `${network}'s token endpoint answered ${reply.status}${problem ? `: ${problem.message}` : ""}.`,
        retryAfterMs: retryAfterMs(reply.headers, Date.now())
      })
    )
  return Effect.fail(
    new OAuthRefused({
      message: problem?.message ?? `HTTP ${reply.status}`,
      error: problem?.code === null || problem === null ? `http_${reply.status}` : `meta_${problem.code}`
    })
  )
}

const reached = (network: string) => (e: { readonly message: string }) =>
  new OAuthUnavailable({ message: `${network}'s token endpoint could not be reached: ${e.message}` })

export const makeMetaLogin = (network: string, login: MetaLogin) => {
  const oauth = makeOAuth2Client({
    clientId: login.clientId,
    clientSecret: login.clientSecret,
    authorizeUrl: login.authorizeUrl,
    tokenUrl: login.tokenUrl,
    scopes: login.scopes,
    scopeSeparator: ",",
    pkce: false,
    clientAuthentication: "post",
    timeoutMs: login.timeoutMs
  })
  const secret = () => Redacted.value(login.clientSecret)

  return {
    authorizationUrl: (input: { readonly state: string; readonly callbackUrl: string }) =>
      login.configId === undefined
        ? oauth.authorizationUrl(input)
        : Effect.map(oauth.authorizationUrl(input), (begun) => {
            const url = new URL(begun.url)
            url.searchParams.delete("scope")
            url.searchParams.set("config_id", login.configId!)
            return { ...begun, url: url.toString() }
          }),

    /** The callback's code for a (short-lived) token; the person's refusal comes back as Meta's words. */
    exchangeCode: (
      params: Readonly<Record<string, string>>,
      callbackUrl: string
    ): Effect.Effect<MetaToken, OAuthRefused | OAuthUnavailable> => {
      // The callback URL's words are anyone's: a fixed sentence per error code (oauth2.ts).
      if (params.error !== undefined || params.error_reason !== undefined)
        return Effect.fail(
          callbackRefusal(params.error ?? (params.error_reason === "user_denied" ? "access_denied" : undefined))
        )
      // Instagram appends "#_" to the redirect; a code copied with it would be refused.
      const code = (params.code ?? "").replace(/#_$/, "")
      if (code === "")
        return Effect.fail(new OAuthRefused({ message: "The callback carried no code.", error: "invalid_request" }))
      const body = new URLSearchParams({
        client_id: login.clientId,
        client_secret: secret(),
        grant_type: "authorization_code",
        redirect_uri: callbackUrl,
        code
      })
      return send({ method: "POST", url: login.tokenUrl, body, timeoutMs: login.timeoutMs }).pipe(
        Effect.mapError(reached(network)),
        Effect.flatMap((reply) => readToken(network, reply))
      )
    },

    /** A GET to one of Meta's token exchanges (fb_exchange_token, ig_exchange_token, ig_refresh_token, th_…). */
    tokenGet: (
      url: string,
      query: Readonly<Record<string, string>>
    ): Effect.Effect<MetaToken, OAuthRefused | OAuthUnavailable> =>
      send({ method: "GET", url: `${url}?${new URLSearchParams(query)}`, timeoutMs: login.timeoutMs }).pipe(
        Effect.mapError(reached(network)),
        Effect.flatMap((reply) => readToken(network, reply))
      ),

    clientSecret: secret
  }
}

export type MetaLoginClient = ReturnType<typeof makeMetaLogin>

/**
 * Instagram Login and Threads tokens last 60 days and are renewed with themselves (after their first
 * day). Herald renews ahead of `expiresAt`, so it is set this long before Meta's end: a publish in
 * the token's last week renews it while Meta still accepts the renewal.
 */
export const RENEW_MARGIN_MS = 7 * 24 * 60 * 60_000

/** Herald's credentials for a long-lived Meta token received at `nowMs`: renewed with itself, so it is its own refresh token. */
export const longLivedCredentials = (token: MetaToken, nowMs: number, extra?: Readonly<Record<string, string>>) => ({
  accessToken: token.accessToken,
  refreshToken: token.accessToken,
  expiresAt:
    token.expiresInSeconds === null
      ? null
      : nowMs + Math.max(token.expiresInSeconds * 1000 - RENEW_MARGIN_MS, token.expiresInSeconds * 500),
  ...(extra === undefined ? {} : { extra })
})
