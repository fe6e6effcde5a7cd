import { platformLabels, platforms } from "./networks.generated.ts"

/**
 * The networks Herald publishes to, in display order, as the network folders declare them
 * (adapters/networks/<network>/index.ts, listed in hosts/networks.ts; `npm run networks` derives
 * networks.generated.ts, as the domain imports no adapter).
 */
export { platforms }

export type Platform = (typeof platforms)[number]

export const isPlatform = (value: string): value is Platform => (platforms as ReadonlyArray<string>).includes(value)

/** Display names, for messages. */
export const platformNames: Record<Platform, string> = platformLabels
