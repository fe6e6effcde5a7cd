import { deliverySuite } from "./deliverySuite.ts"
import { webhooksLayer } from "./support.ts"

deliverySuite("in memory", webhooksLayer)
