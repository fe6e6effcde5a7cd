import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js"
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens
} from "@modelcontextprotocol/sdk/shared/auth.js"

/** A loopback server a client's redirect URI (or metadata document) points at: it records what arrives. */
export const loopbackServer = async (answer: (path: string) => { status: number; type: string; body: string }) => {
  const seen: Array<URL> = []
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1")
    seen.push(url)
    const reply = answer(url.pathname)
    res.writeHead(reply.status, { "content-type": reply.type })
    res.end(reply.body)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { origin, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

/**
 * An MCP client's OAuth side as the SDK asks for it, kept in memory: what a desktop assistant stores.
 * `redirected` is the authorization URL the SDK would open in the person's browser.
 */
export class MemoryProvider implements OAuthClientProvider {
  redirected: URL | undefined
  private info: OAuthClientInformationMixed | undefined
  private saved: OAuthTokens | undefined
  private verifier = ""
  private readonly redirectUri: string
  private readonly name: string
  constructor(redirectUri: string, name: string, preset?: OAuthClientInformationMixed) {
    this.redirectUri = redirectUri
    this.name = name
    this.info = preset
  }
  get redirectUrl() {
    return this.redirectUri
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.name,
      redirect_uris: [this.redirectUri],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none"
    }
  }
  state() {
    return "state-123"
  }
  clientInformation() {
    return this.info
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info
  }
  tokens() {
    return this.saved
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens
  }
  redirectToAuthorization(url: URL) {
    this.redirected = url
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier
  }
  codeVerifier() {
    return this.verifier
  }
  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery") {
    if (scope === "all" || scope === "tokens") this.saved = undefined
    if (scope === "all" || scope === "client") this.info = undefined
  }
}
