import type { DeliveryLimits } from "../../ports/WebhookDeliveries.ts"

/** How long an endpoint with `hangs` hung tries in a row takes no slot: the first pause, doubled per further hang, capped. */
export const pauseFor = (hangs: number, limits: DeliveryLimits): number =>
  Math.min(limits.pauseMs * 2 ** Math.max(0, hangs - limits.hangsToPause), limits.maxPauseMs)
