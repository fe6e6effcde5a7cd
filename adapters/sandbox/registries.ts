import { Effect, Layer, Option } from "effect"
import { Connectors } from "../../application/ports/Connectors.ts"
import { Publishers } from "../../application/ports/Publishers.ts"
import { connector } from "./SandboxConnector.ts"
import { SandboxPublisherTag } from "./SandboxPublisher.ts"

/** Connectors for the networks enabled here: the sandbox (real networks come with their adapters). */
export const connectorsLayer = Layer.succeed(Connectors)({
  available: ["sandbox"],
  get: (platform) => (platform === "sandbox" ? Option.some(connector) : Option.none())
})

export const publishersLayer = Layer.effect(Publishers)(
  Effect.map(SandboxPublisherTag, (sandbox) => ({
    get: (platform) => (platform === "sandbox" ? Option.some(sandbox) : Option.none())
  }))
)
