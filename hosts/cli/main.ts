import { join, resolve } from "node:path"
import { parseArgs } from "node:util"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { HeraldConfig, loadConfig } from "../../application/config.ts"
import { approvePost } from "../../application/usecases/posts/actions.ts"
import { asOwner, createKeyAsOperator, createWorkspaceAsOperator, signInLinkAsOperator } from "../../application/usecases/operator.ts"
import * as NodeCrypto from "../../adapters/crypto/NodeCrypto.ts"
import * as Pglite from "../../adapters/pglite/index.ts"
import * as Postgres from "../../adapters/postgres/index.ts"
import { HeraldError, toEnvelope } from "../../domain/errors.ts"

const usage = `Usage: npm run herald -- <command>
  migrate                                            bring the database schema up to date
  workspace create --email <e> [--name <n>] [--plan free|pro]   a claimed workspace
  key create --workspace <id> [--name <n>] [--asks-first]       prints the key (shown once)
  post approve <postId> [--workspace <id>]           approve as the workspace owner
  signin-link --email <e>                            a sign-in link for the owner (no SMTP needed)
Database: DATABASE_URL, else the embedded PGlite in $HERALD_DATA_DIR/pg (stop \`npm start\` first).`

const { positionals, values } = parseArgs({
  args: process.argv.slice(2),
  allowPositionals: true,
  options: {
    email: { type: "string" }, name: { type: "string" }, plan: { type: "string" }, workspace: { type: "string" },
    "asks-first": { type: "boolean", default: false }, help: { type: "boolean", short: "h", default: false }
  }
})

const print = (value: unknown) => Effect.sync(() => console.log(JSON.stringify(value, null, 2)))

const required = (name: "email" | "workspace") =>
  values[name] === undefined ? Effect.die(new Error(`--${name} is required.\n\n${usage}`)) : Effect.succeed(values[name])

/** The post's workspace, for `post approve` without --workspace (post ids are unique server-wide). */
const workspaceOfPost = (postId: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ workspace_id: string }>`SELECT workspace_id FROM posts WHERE id = ${postId}`.pipe(Effect.orDie)
    if (rows.length === 0) return yield* Effect.fail(new HeraldError({ code: "post_not_found", details: { postId } }))
    return rows[0].workspace_id
  })

const command = Effect.gen(function* () {
  const [group, action, arg] = positionals
  switch (`${group ?? ""} ${action ?? ""}`.trim()) {
    case "migrate":
      return yield* print({ migrated: (yield* Postgres.migrate).map(([id, name]) => `${String(id).padStart(4, "0")}_${name}`) })
    case "workspace create": {
      const ws = yield* createWorkspaceAsOperator({ email: yield* required("email"), name: values.name, plan: values.plan })
      return yield* print({ workspace: { id: ws.id, name: ws.name, ownerEmail: ws.ownerEmail, plan: ws.plan, claimed: ws.claimed } })
    }
    case "key create": {
      const { text, key } = yield* createKeyAsOperator(yield* required("workspace"), values.name, values["asks-first"] === true)
      return yield* print({ apiKey: text, key: { id: key.id, name: key.name, requireApproval: key.requireApproval } })
    }
    case "post approve": {
      if (arg === undefined) return yield* Effect.die(new Error(`post approve needs a post id.\n\n${usage}`))
      const workspaceId = values.workspace ?? (yield* workspaceOfPost(arg))
      const { post } = yield* asOwner(workspaceId, (owner) => approvePost(owner, arg))
      return yield* print({ post: { id: post.id, status: post.status, scheduledFor: post.scheduledFor } })
    }
    case "signin-link":
      return yield* print({ link: yield* signInLinkAsOperator(yield* required("email")) })
    default:
      return yield* Effect.sync(() => {
        console.log(usage)
        if (!values.help) process.exitCode = 2
      })
  }
})

const main = Effect.gen(function* () {
  const { env, config } = yield* loadConfig
  const sql = Option.match(env.databaseUrl, {
    onNone: () => Pglite.layer(join(resolve(env.dataDir), "pg")),
    onSome: (url) => Postgres.layerFromUrl(url, { maxConnections: 2 })
  })
  // Every command but `migrate` migrates first, so a fresh database just works.
  const migrated = positionals[0] === "migrate" ? Layer.empty : Layer.effectDiscard(Postgres.migrate)
  const core = Layer.mergeAll(Postgres.storageLayer, migrated).pipe(
    Layer.provideMerge(sql),
    Layer.merge(NodeCrypto.layer),
    Layer.merge(Layer.succeed(HeraldConfig)(config))
  )
  yield* command.pipe(
    Effect.catchIf((e): e is HeraldError => e instanceof HeraldError, (e) =>
      Effect.sync(() => {
        console.error(JSON.stringify(toEnvelope(e).body, null, 2))
        process.exitCode = 1
      })),
    Effect.provide(core)
  )
})

NodeRuntime.runMain(main)
