import { Effect, Layer, Option } from "effect"
import * as AesGcmVault from "../../adapters/crypto/AesGcmVault.ts"
import * as NodeCrypto from "../../adapters/crypto/NodeCrypto.ts"
import { layer as storageLayer } from "../../adapters/memory/index.ts"
import * as HmacFileLinks from "../../adapters/crypto/HmacFileLinks.ts"
import * as MemoryBlobStore from "../../adapters/memory/MemoryBlobStore.ts"
import * as RecordingMailer from "../../adapters/memory/RecordingMailer.ts"
import { SentMail } from "../../adapters/memory/RecordingMailer.ts"
import * as ScriptedPublisher from "../../adapters/testing/ScriptedPublisher.ts"
import { HeraldConfig } from "../../application/config.ts"
import { PostRepo } from "../../application/ports/PostRepo.ts"
import { connectInBrowser } from "../support/connect.ts"
import { authenticateKey, authenticateSession } from "../../application/usecases/auth.ts"
import { claimWorkspace } from "../../application/usecases/claim.ts"
import { createKey } from "../../application/usecases/keys.ts"
import { defaultPipelineOptions, type PipelineOptions } from "../../application/usecases/publishing/options.ts"
import { signUp } from "../../application/usecases/signup.ts"
import type { Actor } from "../../domain/apiKey.ts"
import type { Platform } from "../../domain/platforms.ts"
import type { Post } from "../../domain/post.ts"
import { sandboxConnectors, testConfig } from "../../hosts/test/TestHost.ts"

/** The in-memory host with the scripted network in place of the sandbox publisher (and of `platforms`' publishers). */
export const pipelineLayer = (platforms: ReadonlyArray<Platform> = ["sandbox"]) =>
  Layer.mergeAll(
    storageLayer,
    NodeCrypto.layer,
    AesGcmVault.layer("herald test secret"),
    RecordingMailer.layer,
    sandboxConnectors,
    ScriptedPublisher.layer(platforms),
    MemoryBlobStore.layer("http://herald.test").pipe(Layer.provide(HmacFileLinks.layer("herald test secret"))),
    Layer.succeed(HeraldConfig)(testConfig())
  )

/** Short, round numbers so the clock arithmetic in tests is easy to follow. */
export const testOptions: PipelineOptions = {
  ...defaultPipelineOptions,
  leaseMs: 60_000,
  pollMs: 1_000,
  publishTimeoutMs: 30_000,
  firstCommentDelayMs: 10_000
}

export interface Fixture {
  /** The owner, signed in. */
  readonly person: Actor
  /** A key that posts without approval. */
  readonly agent: Actor
  /** The asks-first key made at sign-up. */
  readonly asksFirst: Actor
  readonly accountIds: ReadonlyArray<string>
}

/** A claimed workspace with `accounts` sandbox accounts, its owner and two keys. */
export const setUp = (accounts = 1) =>
  Effect.gen(function* () {
    const email = "owner@herald-customer.org"
    const signed = yield* signUp({ body: { email, agentName: "Agent" }, ip: "10.0.0.1" })
    const mail = (yield* SentMail).last(email)!
    const token = /token=([A-Za-z0-9]+)/.exec(mail.text)![1]
    const { session } = yield* claimWorkspace(token, null)
    const { actor: person } = yield* authenticateSession(session.token)
    const { apiKey } = yield* createKey(person, { name: "bot", requireApproval: false })
    const agent = yield* authenticateKey(apiKey)
    const asksFirst = yield* authenticateKey(signed.body.apiKey!)
    const accountIds: Array<string> = []
    for (let i = 0; i < accounts; i++) {
      const { account } = yield* connectInBrowser(person, "sandbox", { username: `acct${i}` })
      accountIds.push(account.id)
    }
    return { person, agent, asksFirst, accountIds } satisfies Fixture
  })

/** The stored post (with its internal fields), for assertions. */
export const storedPost = (actor: Actor, id: string) =>
  Effect.map(
    Effect.flatMap(PostRepo, (posts) => posts.findById(actor.workspaceId, id)),
    (found): Post => Option.getOrThrow(found)
  )

/** ISO time `ms` after the epoch (TestClock starts there). */
export const at = (ms: number) => new Date(ms).toISOString()
