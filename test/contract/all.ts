import type { Layer } from "effect"
import type { AccountRepo } from "../../application/ports/AccountRepo.ts"
import type { CredentialStore } from "../../application/ports/CredentialStore.ts"
import type { ApiKeyRepo } from "../../application/ports/ApiKeyRepo.ts"
import type { IdempotencyStore } from "../../application/ports/IdempotencyStore.ts"
import type { JobQueue } from "../../application/ports/JobQueue.ts"
import type { MediaRepo } from "../../application/ports/MediaRepo.ts"
import type { OAuthStore } from "../../application/ports/OAuthStore.ts"
import type { PostCreator } from "../../application/ports/PostCreator.ts"
import type { PostRepo } from "../../application/ports/PostRepo.ts"
import type { RateLimiter } from "../../application/ports/RateLimiter.ts"
import type { ScheduleRepo } from "../../application/ports/ScheduleRepo.ts"
import type { Store } from "../../application/ports/Store.ts"
import type { TokenRepo } from "../../application/ports/TokenRepo.ts"
import type { UsageCounter } from "../../application/ports/UsageCounter.ts"
import type { WorkspaceRepo } from "../../application/ports/WorkspaceRepo.ts"
import { accountRepoContract } from "./accountRepo.ts"
import { apiKeyRepoContract } from "./apiKeyRepo.ts"
import { credentialStoreContract } from "./credentialStore.ts"
import type { SuiteOptions } from "./fixtures.ts"
import { idempotencyStoreContract } from "./idempotencyStore.ts"
import { mediaRepoContract } from "./mediaRepo.ts"
import { oauthStoreContract } from "./oauthStore.ts"
import { postCreatorContract } from "./postCreator.ts"
import { postRepoContract } from "./postRepo.ts"
import { rateLimiterContract } from "./rateLimiter.ts"
import { scheduleRepoContract } from "./scheduleRepo.ts"
import { storeContract } from "./store.ts"
import { tokenRepoContract } from "./tokenRepo.ts"
import { usageCounterContract } from "./usageCounter.ts"
import { workspaceRepoContract } from "./workspaceRepo.ts"

export type StoragePorts =
  | Store
  | WorkspaceRepo
  | ApiKeyRepo
  | TokenRepo
  | AccountRepo
  | CredentialStore
  | MediaRepo
  | PostRepo
  | IdempotencyStore
  | UsageCounter
  | RateLimiter
  | JobQueue
  | PostCreator
  | ScheduleRepo
  | OAuthStore

/** Runs every storage contract; `ports()` must give a layer whose every build starts empty. */
export const storageContracts = (
  name: string,
  ports: () => Layer.Layer<StoragePorts, unknown>,
  options?: SuiteOptions
) => {
  workspaceRepoContract(name, ports(), options)
  apiKeyRepoContract(name, ports(), options)
  tokenRepoContract(name, ports(), options)
  accountRepoContract(name, ports(), options)
  credentialStoreContract(name, ports(), options)
  mediaRepoContract(name, ports(), options)
  postRepoContract(name, ports(), options)
  idempotencyStoreContract(name, ports(), options)
  usageCounterContract(name, ports(), options)
  rateLimiterContract(name, ports(), options)
  storeContract(name, ports(), options)
  postCreatorContract(name, ports(), options)
  scheduleRepoContract(name, ports(), options)
  oauthStoreContract(name, ports(), options)
}
