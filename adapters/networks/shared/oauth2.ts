import * as oauth from "oauth4webapi"
import { Effect, Redacted } from "effect"
import type { NetworkCredentials } from "../../../application/ports/Connectors.ts"
import { Outbound, policies } from "../../outbound/client.ts"
import { retryAfterMs } from "./http.ts"
import { classify, OAuthRefused, OAuthUnavailable, wordsOf } from "./oauth2Errors.ts"

/**
 * How the client proves itself at the token endpoint:
 * - `basic`: `Authorization: Basic base64(id:secret)` with the values as they are, as X and TikTok
 *   document it (the RFC's form-encoding first would turn a secret's `-` and `_` into `%2D`/`%5F`);
 * - `basic-form-encoded`: RFC 6749 §2.3.1 to the letter (id and secret form-encoded first);
 * - `post`: `client_id` and `client_secret` in the form body (LinkedIn, Google).
 */
export type ClientAuthentication = "basic" | "basic-form-encoded" | "post"

/** One network's OAuth 2.0 app, endpoints from configuration. */
export interface OAuth2Settings {
  readonly clientId: string
  readonly clientSecret: Redacted.Redacted<string>
  readonly authorizeUrl: string
  readonly tokenUrl: string
  readonly scopes: ReadonlyArray<string>
  /** Space by default (RFC 6749); Facebook and TikTok join scopes with commas. */
  readonly scopeSeparator?: string
  /** Proof Key for Code Exchange (S256), where the network supports it. */
  readonly pkce: boolean
  readonly clientAuthentication: ClientAuthentication
  /** For each token request. */
  readonly timeoutMs: number
  /** Other parameters a network wants on its authorize URL. */
  readonly authorizeParams?: Readonly<Record<string, string>>
  /** Other form parameters a network wants in its token requests (TikTok's client_key). */
  readonly tokenParams?: Readonly<Record<string, string>>
  /** Other headers a network wants on its token requests (Reddit's descriptive User-Agent). */
  readonly tokenHeaders?: Readonly<Record<string, string>>
  /**
   * The token endpoint strays from RFC 6749 in ways Herald can safely mend: a missing `token_type`
   * is read as bearer, an `id_token` Herald does not use (profiles come from the API) is dropped
   * rather than checked, and a 2xx carrying an OAuth `error` and no token is read as the refusal it
   * is. LinkedIn leaves out token_type and sends an id_token with openid; TikTok's error answers may
   * come with a 200 (unverified).
   */
  readonly lenientTokenResponse?: boolean
}

/** What a token endpoint gave. */
export interface Tokens {
  readonly accessToken: string
  /** Null when none was sent (no offline access, or a network that sends it only at first consent). */
  readonly refreshToken: string | null
  readonly expiresInSeconds: number | null
  /** How long the refresh token lasts, when the network says (`refresh_token_expires_in`, TikTok's `refresh_expires_in`). */
  readonly refreshExpiresInSeconds: number | null
  readonly scope: string | null
}

export interface OAuth2Client {
  /** The URL the person opens, and the PKCE verifier to keep until the callback (null without PKCE). */
  readonly authorizationUrl: (input: {
    readonly state: string
    readonly callbackUrl: string
  }) => Effect.Effect<{ readonly url: string; readonly verifier: string | null }>
  /** The callback's parameters (code, state, or the network's error) exchanged for tokens. */
  readonly exchangeCode: (input: {
    readonly params: Readonly<Record<string, string>>
    readonly callbackUrl: string
    readonly verifier: string | null
  }) => Effect.Effect<Tokens, OAuthRefused | OAuthUnavailable>
  /** A refresh-token grant; networks that rotate answer with a new refresh token. */
  readonly refresh: (refreshToken: string) => Effect.Effect<Tokens, OAuthRefused | OAuthUnavailable>
}

const plainBasic =
  (secret: string): oauth.ClientAuth =>
  (_as, client, _body, headers) => {
    headers.set("authorization", `Basic ${Buffer.from(`${client.client_id}:${secret}`, "utf8").toString("base64")}`)
  }

const clientAuthOf = (settings: OAuth2Settings): oauth.ClientAuth => {
  const secret = Redacted.value(settings.clientSecret)
  switch (settings.clientAuthentication) {
    case "basic":
      return plainBasic(secret)
    case "basic-form-encoded":
      return oauth.ClientSecretBasic(secret)
    case "post":
      return oauth.ClientSecretPost(secret)
  }
}

const seconds = (value: unknown): number | null => {
  const n = typeof value === "string" ? Number(value) : value
  return typeof n === "number" && Number.isFinite(n) && n > 0 ? n : null
}

const tokensOf = (response: oauth.TokenEndpointResponse): Tokens => ({
  accessToken: response.access_token,
  refreshToken: response.refresh_token ?? null,
  expiresInSeconds: typeof response.expires_in === "number" ? response.expires_in : null,
  refreshExpiresInSeconds:
    response.refresh_token === undefined
      ? null
      : seconds(response.refresh_token_expires_in ?? response.refresh_expires_in),
  scope: response.scope ?? null
})

/** A fetch that mends a 2xx JSON token answer (see `lenientTokenResponse`) before oauth4webapi reads it. */
const lenientFetch =
  (fetch: typeof globalThis.fetch) =>
  async (url: string, init: oauth.CustomFetchOptions<"POST", URLSearchParams>): Promise<Response> => {
    const response = await fetch(url, init as RequestInit)
    if (response.status < 200 || response.status >= 300) return response
    const text = await response.text()
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      return new Response(text, { status: response.status, headers: response.headers })
    }
    let status = response.status
    if (typeof body === "object" && body !== null && !Array.isArray(body)) {
      const record = body as Record<string, unknown>
      if (typeof record.error === "string" && record.error !== "" && record.access_token === undefined) status = 400
      else if (record.token_type === undefined) record.token_type = "bearer"
      delete record.id_token
    }
    const headers = new Headers(response.headers)
    headers.delete("content-length")
    headers.delete("content-encoding")
    return new Response(JSON.stringify(body), { status, headers })
  }

/** An OAuth 2.0 client for one network, on oauth4webapi, with the endpoints its configuration names. */
export const makeOAuth2Client = (settings: OAuth2Settings): OAuth2Client => {
  const as: oauth.AuthorizationServer = {
    issuer: new URL(settings.authorizeUrl).origin,
    authorization_endpoint: settings.authorizeUrl,
    token_endpoint: settings.tokenUrl
  }
  const client: oauth.Client = { client_id: settings.clientId }
  const clientAuth = clientAuthOf(settings)
  // Plain http only when the configuration says so (a local proxy, a test server).
  const insecure = settings.tokenUrl.startsWith("http:")
  // Token requests go through the one outbound client, timed by its token-endpoint policy.
  const policy = { ...policies.oauth, timeoutMs: settings.timeoutMs }
  const options = (signal: AbortSignal, fetch: typeof globalThis.fetch) => ({
    signal: AbortSignal.any([signal, AbortSignal.timeout(settings.timeoutMs)]),
    [oauth.allowInsecureRequests]: insecure,
    [oauth.customFetch]: settings.lenientTokenResponse === true ? lenientFetch(fetch) : fetch,
    ...(settings.tokenParams === undefined ? {} : { additionalParameters: { ...settings.tokenParams } }),
    ...(settings.tokenHeaders === undefined ? {} : { headers: { ...settings.tokenHeaders } })
  })

  /** Sends a token request; 5xx and 429 are "later" before the library reads them as refusals. */
  const tokenRequest = (
    request: (signal: AbortSignal, fetch: typeof globalThis.fetch) => Promise<Response>,
    process: (response: Response) => Promise<oauth.TokenEndpointResponse>
  ) =>
    Effect.flatMap(Outbound, (outbound) =>
      Effect.tryPromise({
        try: async (signal) => {
          const response = await request(signal, outbound.fetch(policy))
          if (response.status >= 500 || response.status === 429) {
            await response.body?.cancel()
            throw new OAuthUnavailable({
              message: `The token endpoint answered ${response.status}.`,
              retryAfterMs: retryAfterMs(response.headers, Date.now())
            })
          }
          const copy = response.status >= 400 ? response.clone() : null
          try {
            return tokensOf(await process(response))
          } catch (cause) {
            // A 4xx the library could not read as an OAuth error is still a refusal, with the network's own words when it gave some.
            if (
              copy !== null &&
              !(cause instanceof oauth.ResponseBodyError) &&
              !(cause instanceof oauth.WWWAuthenticateChallengeError)
            ) {
              const said = wordsOf(await copy.text().catch(() => ""))
              throw new OAuthRefused({
                message: `The token endpoint refused the request (HTTP ${response.status})${said === null ? "." : `: ${said}`}`,
                error: `http_${response.status}`
              })
            }
            throw cause
          }
        },
        catch: classify
      })
    )

  return {
    authorizationUrl: ({ state, callbackUrl }) =>
      Effect.promise(async () => {
        const url = new URL(settings.authorizeUrl)
        const verifier = settings.pkce ? oauth.generateRandomCodeVerifier() : null
        url.searchParams.set("response_type", "code")
        url.searchParams.set("client_id", settings.clientId)
        url.searchParams.set("redirect_uri", callbackUrl)
        url.searchParams.set("scope", settings.scopes.join(settings.scopeSeparator ?? " "))
        url.searchParams.set("state", state)
        if (verifier !== null) {
          url.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(verifier))
          url.searchParams.set("code_challenge_method", "S256")
        }
        for (const [name, value] of Object.entries(settings.authorizeParams ?? {})) url.searchParams.set(name, value)
        return { url: url.toString(), verifier }
      }),
    exchangeCode: ({ params, callbackUrl, verifier }) =>
      Effect.try({
        // Herald checked and used up the state already; this reads the network's error, if it sent one.
        try: () => oauth.validateAuthResponse(as, client, new URLSearchParams({ ...params }), oauth.skipStateCheck),
        catch: classify
      }).pipe(
        Effect.flatMap((callback) =>
          tokenRequest(
            (signal, fetch) =>
              oauth.authorizationCodeGrantRequest(
                as,
                client,
                clientAuth,
                callback,
                callbackUrl,
                verifier ?? oauth.nopkce,
                options(signal, fetch)
              ),
            (response) => oauth.processAuthorizationCodeResponse(as, client, response)
          )
        )
      ),
    refresh: (refreshToken) =>
      tokenRequest(
        (signal, fetch) => oauth.refreshTokenGrantRequest(as, client, clientAuth, refreshToken, options(signal, fetch)),
        (response) => oauth.processRefreshTokenResponse(as, client, response)
      )
  }
}

/** Herald's credentials from a token answer received at `nowMs`. */
export const credentialsOf = (
  tokens: Tokens,
  nowMs: number,
  extra?: Readonly<Record<string, string>>
): NetworkCredentials => ({
  accessToken: tokens.accessToken,
  refreshToken: tokens.refreshToken,
  expiresAt: tokens.expiresInSeconds === null ? null : nowMs + tokens.expiresInSeconds * 1000,
  ...(tokens.refreshExpiresInSeconds === null
    ? {}
    : { refreshExpiresAt: nowMs + tokens.refreshExpiresInSeconds * 1000 }),
  ...(extra === undefined ? {} : { extra })
})
