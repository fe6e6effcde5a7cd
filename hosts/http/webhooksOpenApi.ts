import { Schema } from "effect"
import { eventSchemas } from "../../domain/events.ts"

/**
 * Adds the events to an OpenAPI document as webhooks (OpenAPI 3.1): one entry per event type, the
 * request Herald POSTs, its schema among the components.
 */
export const addWebhooks = (spec: Record<string, any>): Record<string, any> => {
  const components = { ...(spec.components ?? {}), schemas: { ...(spec.components?.schemas ?? {}) } }
  const webhooks: Record<string, unknown> = {}
  for (const [type, schema] of Object.entries(eventSchemas)) {
    const document = JSON.parse(JSON.stringify(Schema.toJsonSchemaDocument(schema)).replaceAll("#/$defs/", "#/components/schemas/")) as {
      schema: Record<string, unknown>
      definitions: Record<string, unknown>
    }
    Object.assign(components.schemas, document.definitions)
    webhooks[type] = {
      post: {
        summary: type,
        description: (schema.ast.annotations?.description as string | undefined) ?? type,
        parameters: [
          { name: "webhook-id", in: "header", required: true, schema: { type: "string" }, description: "The event id: the same on every try, for deduplication" },
          { name: "webhook-timestamp", in: "header", required: true, schema: { type: "string" }, description: "Seconds since the epoch when this try was signed" },
          {
            name: "webhook-signature",
            in: "header",
            required: true,
            schema: { type: "string" },
            description: "v1,<base64 HMAC-SHA256 of id.timestamp.body under the endpoint's secret>"
          }
        ],
        requestBody: { required: true, content: { "application/json": { schema: document.schema } } },
        responses: { "2XX": { description: "Received. Any other answer (or none within 10 s) is retried, for about three days." } }
      }
    }
  }
  return { ...spec, components, webhooks }
}
