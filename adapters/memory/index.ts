import { Layer } from "effect"
import * as ComposedPostCreator from "./ComposedPostCreator.ts"
import * as MemoryAccountRepo from "./MemoryAccountRepo.ts"
import * as MemoryEventOutbox from "./MemoryEventOutbox.ts"
import * as MemoryWebhookDeliveries from "./MemoryWebhookDeliveries.ts"
import * as MemoryWebhookRepo from "./MemoryWebhookRepo.ts"
import * as MemoryCredentialStore from "./MemoryCredentialStore.ts"
import * as MemoryApiKeyRepo from "./MemoryApiKeyRepo.ts"
import * as MemoryOAuthStore from "./MemoryOAuthStore.ts"
import * as MemoryIdempotencyStore from "./MemoryIdempotencyStore.ts"
import * as MemoryJobQueue from "./MemoryJobQueue.ts"
import * as MemoryMediaRepo from "./MemoryMediaRepo.ts"
import * as MemoryMetricsRepo from "./MemoryMetricsRepo.ts"
import * as MemoryPostRepo from "./MemoryPostRepo.ts"
import * as MemoryRateLimiter from "./MemoryRateLimiter.ts"
import * as MemoryScheduleRepo from "./MemoryScheduleRepo.ts"
import * as MemoryState from "./MemoryState.ts"
import * as MemoryStore from "./MemoryStore.ts"
import * as MemoryTokenRepo from "./MemoryTokenRepo.ts"
import * as MemoryUsageCounter from "./MemoryUsageCounter.ts"
import * as MemoryWorkspaceRepo from "./MemoryWorkspaceRepo.ts"

/** Every storage port on one in-memory state. */
export const layer = Layer.mergeAll(
  MemoryStore.layer,
  MemoryWorkspaceRepo.layer,
  MemoryApiKeyRepo.layer,
  MemoryOAuthStore.layer,
  MemoryTokenRepo.layer,
  MemoryAccountRepo.layer,
  MemoryCredentialStore.layer,
  MemoryMediaRepo.layer,
  MemoryPostRepo.layer,
  MemoryIdempotencyStore.layer,
  MemoryUsageCounter.layer,
  MemoryRateLimiter.layer,
  MemoryJobQueue.layer,
  MemoryEventOutbox.layer,
  MemoryWebhookRepo.layer,
  MemoryWebhookDeliveries.layer,
  MemoryScheduleRepo.layer,
  MemoryMetricsRepo.layer
).pipe((ports) => Layer.provideMerge(ComposedPostCreator.layer, ports), Layer.provide(MemoryState.layer))
