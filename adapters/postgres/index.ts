import { Layer } from "effect"
import * as PostgresAccountRepo from "./PostgresAccountRepo.ts"
import * as PostgresEventOutbox from "./PostgresEventOutbox.ts"
import * as PostgresWebhookDeliveries from "./PostgresWebhookDeliveries.ts"
import * as PostgresWebhookRepo from "./PostgresWebhookRepo.ts"
import * as PostgresCredentialStore from "./PostgresCredentialStore.ts"
import * as PostgresApiKeyRepo from "./PostgresApiKeyRepo.ts"
import * as PostgresOAuthStore from "./PostgresOAuthStore.ts"
import * as PostgresIdempotencyStore from "./PostgresIdempotencyStore.ts"
import * as PostgresMediaRepo from "./PostgresMediaRepo.ts"
import * as PostgresMetricsRepo from "./PostgresMetricsRepo.ts"
import * as PostgresJobQueue from "./PostgresJobQueue.ts"
import * as PostgresPostCreator from "./PostgresPostCreator.ts"
import * as PostgresPostRepo from "./PostgresPostRepo.ts"
import * as PostgresRateLimiter from "./PostgresRateLimiter.ts"
import * as PostgresScheduleRepo from "./PostgresScheduleRepo.ts"
import * as PostgresStore from "./PostgresStore.ts"
import * as PostgresTokenRepo from "./PostgresTokenRepo.ts"
import * as PostgresUsageCounter from "./PostgresUsageCounter.ts"
import * as PostgresWorkspaceRepo from "./PostgresWorkspaceRepo.ts"

export { loader, migrate, migrateWith, migrations, storageTables } from "./migrations.ts"

/** Every storage port, the publish queue included, on one SqlClient (a PostgreSQL server, or PGlite through adapters/pglite). */
export const layer = Layer.mergeAll(
  PostgresStore.layer,
  PostgresWorkspaceRepo.layer,
  PostgresApiKeyRepo.layer,
  PostgresOAuthStore.layer,
  PostgresTokenRepo.layer,
  PostgresAccountRepo.layer,
  PostgresCredentialStore.layer,
  PostgresMediaRepo.layer,
  PostgresPostRepo.layer,
  PostgresPostCreator.layer,
  PostgresJobQueue.layer,
  PostgresIdempotencyStore.layer,
  PostgresUsageCounter.layer,
  PostgresRateLimiter.layer,
  PostgresEventOutbox.layer,
  PostgresWebhookRepo.layer,
  PostgresWebhookDeliveries.layer,
  PostgresScheduleRepo.layer,
  PostgresMetricsRepo.layer
)
