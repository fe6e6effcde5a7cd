import { parseArgs } from "node:util"
import { Cause, Effect } from "effect"
import { SqlClient } from "effect/sql"
import { SettingInvalid } from "../../application/config.ts"
import { approvePost } from "../../application/usecases/posts/actions.ts"
import {
  asOwner,
  createKeyAsOperator,
  createWorkspaceAsOperator,
  signInLinkAsOperator
} from "../../application/usecases/operator.ts"
import * as Postgres from "../../adapters/postgres/index.ts"
import { fail, HeraldError, toEnvelope } from "../../domain/errors.ts"
import { networkMigrations } from "../networks.ts"

export const usage = `Usage: npm run herald -- <command>
  migrate                                            bring the database schema up to date
  workspace create --email <e> [--name <n>] [--plan free|pro]   a claimed workspace
  key create --workspace <id> [--name <n>] [--asks-first]       prints the key (shown once)
  post approve <postId> [--workspace <id>]           approve as the workspace owner
  signin-link --email <e>                            a sign-in link for the owner (no SMTP needed)
Database: DATABASE_URL, else the embedded PGlite in $HERALD_DATA_DIR/pg; while \`npm start\` holds it,
the command runs inside that process.`

/** What a command printed and how it ended, so it can be run here or inside a running host alike. */
export interface Outcome {
  readonly exitCode: number
  readonly stdout: string
  readonly stderr: string
}

const succeeded = (value: unknown): Outcome => ({
  exitCode: 0,
  stdout: `${JSON.stringify(value, null, 2)}\n`,
  stderr: ""
})
const failed = (exitCode: number, ...lines: ReadonlyArray<string>): Outcome => ({
  exitCode,
  stdout: "",
  stderr: `${lines.join("\n")}\n`
})
const usageError = (what: string) =>
  failed(2, `error: ${what}`, "Run `npm run herald -- --help` for the commands and their options.")

/** The arguments, checked; or the outcome that ends it (help, or a usage error). */
export const parse = (argv: ReadonlyArray<string>) => {
  try {
    const { positionals, values } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        email: { type: "string" },
        name: { type: "string" },
        plan: { type: "string" },
        workspace: { type: "string" },
        "asks-first": { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false }
      }
    })
    const command = positionals
      .slice(0, positionals[0] === "migrate" || positionals[0] === "signin-link" ? 1 : 2)
      .join(" ")
    if (values.help) return { _tag: "Done" as const, outcome: { exitCode: 0, stdout: `${usage}\n`, stderr: "" } }
    if (positionals.length === 0) return { _tag: "Done" as const, outcome: usageError("no command given.") }
    const known = ["migrate", "workspace create", "key create", "post approve", "signin-link"]
    if (!known.includes(command))
      return { _tag: "Done" as const, outcome: usageError(`unknown command "${positionals.join(" ")}".`) }
    const required = { "workspace create": "email", "key create": "workspace", "signin-link": "email" } as const
    const needs = required[command as keyof typeof required]
    if (needs !== undefined && values[needs] === undefined)
      return { _tag: "Done" as const, outcome: usageError(`${command} needs --${needs}.`) }
    if (command === "post approve" && positionals[2] === undefined)
      return { _tag: "Done" as const, outcome: usageError("post approve needs a post id.") }
    return { _tag: "Run" as const, command, postId: positionals[2], values }
  } catch (error) {
    // parseArgs' own complaints (an unknown option, a missing value) are one line each.
    return {
      _tag: "Done" as const,
      outcome: usageError((error instanceof Error ? error.message : String(error)).split(". ")[0])
    }
  }
}

/** The post's workspace, for `post approve` without --workspace (post ids are unique server-wide). */
const workspaceOfPost = (postId: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ workspace_id: string }>`SELECT workspace_id FROM posts WHERE id = ${postId}`
    if (rows.length === 0) return yield* Effect.fail(fail("post_not_found", { postId }))
    return rows[0].workspace_id
  })

export type Parsed = Extract<ReturnType<typeof parse>, { _tag: "Run" }>

const execute = ({ command, postId, values }: Parsed) =>
  Effect.gen(function* () {
    switch (command) {
      case "migrate":
        return {
          migrated: (yield* Postgres.migrateWith(networkMigrations)).map(
            ([id, name]) => `${String(id).padStart(4, "0")}_${name}`
          )
        }
      case "workspace create": {
        const ws = yield* createWorkspaceAsOperator({ email: values.email!, name: values.name, plan: values.plan })
        return {
          workspace: { id: ws.id, name: ws.name, ownerEmail: ws.ownerEmail, plan: ws.plan, claimed: ws.claimed }
        }
      }
      case "key create": {
        const { text, key } = yield* createKeyAsOperator(values.workspace!, values.name, values["asks-first"] === true)
        return { apiKey: text, key: { id: key.id, name: key.name, requireApproval: key.requireApproval } }
      }
      case "post approve": {
        const workspaceId = values.workspace ?? (yield* workspaceOfPost(postId!))
        const { post } = yield* asOwner(workspaceId, (owner) => approvePost(owner, postId!))
        return { post: { id: post.id, status: post.status, scheduledFor: post.scheduledFor } }
      }
      default:
        return { link: yield* signInLinkAsOperator(values.email!) }
    }
  })

/** The first line of whatever went wrong, for the one or two lines a failed command prints. */
export const describeFailure = (cause: Cause.Cause<unknown>): Outcome => {
  const error = Cause.squash(cause)
  if (error instanceof SettingInvalid) return failed(1, `error: ${error.message}`)
  if (error instanceof HeraldError) {
    const { body } = toEnvelope(error)
    // The details (which fields, which id) say more here than the hint, which is written for API callers.
    return failed(
      1,
      `error: ${body.error.message} (${body.error.code})`,
      body.error.details ? `details: ${JSON.stringify(body.error.details)}` : body.error.hint
    )
  }
  // The first line of each message down the chain of causes, each said once (a refused connection ends in ECONNREFUSED).
  const said: Array<string> = []
  for (
    let e: unknown = error, depth = 0;
    e !== undefined && e !== null && depth < 5;
    e = e instanceof Error ? e.cause : undefined, depth++
  ) {
    const line = (e instanceof Error ? e.message : String(e)).split("\n")[0]
    if (line !== "" && !said.includes(line)) said.push(line)
  }
  const tag =
    typeof error === "object" && error !== null && "_tag" in error
      ? `${String((error as { _tag: unknown })._tag)}: `
      : ""
  return failed(1, `error: ${tag}${said.join(": ")}`)
}

/** Runs a parsed command; every failure becomes an outcome of one or two lines, never a stack trace. */
export const run = (parsed: Parsed) =>
  execute(parsed).pipe(
    Effect.map(succeeded),
    Effect.catchCause((cause) => Effect.succeed(describeFailure(cause)))
  )

/** The services a command needs: the storage ports, SQL, crypto and the configuration. */
export type CommandServices = Effect.Services<ReturnType<typeof run>>
