import { layer as storageLayer } from "../../adapters/memory/index.ts"
import { storageContracts } from "./all.ts"

// Each suite builds the layer anew, so each starts from an empty in-memory state.
storageContracts("memory", () => storageLayer)
