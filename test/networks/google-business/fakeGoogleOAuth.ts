import { createHash, randomBytes } from "node:crypto"
import type { IncomingMessage, ServerResponse } from "node:http"

/**
 * Google's OAuth 2.0 as a web-server app meets it: the authorize page (PKCE S256 required, a refresh
 * token only with access_type=offline) and the token endpoint (client_secret in the form; refresh
 * tokens that do not rotate; invalid_grant once revoked), with hour-long access tokens read by `bearer`.
 */
export const makeGoogleOAuth = (options: {
  readonly clientId: string
  readonly clientSecret: string
  readonly now: () => number
  /** The Google user the authorize page approves. */
  readonly user: () => string
  readonly send: (res: ServerResponse, status: number, body?: unknown) => void
}) => {
  const { clientId, clientSecret, now, send } = options
  const codes = new Map<
    string,
    { redirectUri: string; challenge: string; user: string; scope: string; offline: boolean }
  >()
  const accessTokens = new Map<string, { user: string; expiresAt: number }>()
  const refreshTokens = new Map<string, string>()
  const everIssued: Array<string> = []

  const issue = (user: string, scope: string, withRefresh: boolean) => {
    const access = `ya29.${randomBytes(24).toString("base64url")}`
    everIssued.push(access)
    accessTokens.set(access, { user, expiresAt: now() + 3599 * 1000 })
    const answer: Record<string, unknown> = { access_token: access, expires_in: 3599, scope, token_type: "Bearer" }
    if (withRefresh) {
      const refresh = `1//${randomBytes(30).toString("base64url")}`
      refreshTokens.set(refresh, user)
      everIssued.push(refresh)
      answer.refresh_token = refresh
    }
    return answer
  }

  /** Answers the authorize page and the token endpoint; false for any other route. */
  const handle = (route: string, query: URLSearchParams, body: any, res: ServerResponse): boolean => {
    if (route === "GET /o/oauth2/v2/auth") {
      if (
        query.get("client_id") !== clientId ||
        query.get("response_type") !== "code" ||
        query.get("code_challenge_method") !== "S256"
      ) {
        send(res, 400, { error: "invalid_request", error_description: "Missing required parameter" })
        return true
      }
      const back = new URL(query.get("redirect_uri") ?? "")
      const code = `4/${randomBytes(20).toString("base64url")}`
      codes.set(code, {
        redirectUri: query.get("redirect_uri") ?? "",
        challenge: query.get("code_challenge") ?? "",
        user: options.user(),
        scope: query.get("scope") ?? "",
        offline: query.get("access_type") === "offline"
      })
      back.searchParams.set("state", query.get("state") ?? "")
      back.searchParams.set("code", code)
      back.searchParams.set("scope", query.get("scope") ?? "")
      res.writeHead(302, { location: back.toString() }).end()
      return true
    }
    if (route !== "POST /token") return false
    if (body?.client_id !== clientId || body?.client_secret !== clientSecret)
      send(res, 401, { error: "invalid_client", error_description: "The OAuth client was not found." })
    else if (body.grant_type === "authorization_code") {
      const grant = codes.get(body.code)
      codes.delete(body.code)
      const proof =
        typeof body.code_verifier === "string"
          ? createHash("sha256").update(body.code_verifier).digest("base64url")
          : null
      if (grant === undefined || grant.redirectUri !== body.redirect_uri || proof !== grant.challenge)
        send(res, 400, { error: "invalid_grant", error_description: "Bad Request" })
      else send(res, 200, issue(grant.user, grant.scope, grant.offline))
    } else if (body.grant_type === "refresh_token") {
      const user = refreshTokens.get(body.refresh_token)
      // Google's refresh tokens do not rotate: no new one in the answer.
      if (user === undefined)
        send(res, 400, { error: "invalid_grant", error_description: "Token has been expired or revoked." })
      else send(res, 200, issue(user, "https://www.googleapis.com/auth/business.manage", false))
    } else send(res, 400, { error: "unsupported_grant_type", error_description: "Invalid grant_type" })
    return true
  }

  return {
    handle,
    /** The Google user a request's access token is for, while it lasts. */
    bearer: (req: IncomingMessage) => {
      const found = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")
      const access = found === null ? undefined : accessTokens.get(found[1])
      return access !== undefined && access.expiresAt > now() ? access.user : null
    },
    /** The person revoked Herald's access: every token of `user` is refused (refresh: invalid_grant). */
    revoke: (user: string) => {
      for (const [t, a] of accessTokens) if (a.user === user) accessTokens.delete(t)
      for (const [t, u] of refreshTokens) if (u === user) refreshTokens.delete(t)
    },
    /** The access tokens of `user` end early (the refresh token still works). */
    expireAccess: (user: string) => {
      for (const [t, a] of accessTokens) if (a.user === user) accessTokens.delete(t)
    },
    issuedTokens: () => [...everIssued]
  }
}
