import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js"

/*
 * Every response the HTTP suites receive through `call` is checked against the OpenAPI document the
 * host serves (GET /api/v1/openapi.json): its status must be one the operation documents, and a
 * JSON body must match that status's schema (ajv, JSON Schema draft 2020-12, as OpenAPI 3.1 uses).
 * A request to a path or method the document has no operation for (a 404 or 405 of the router) is
 * not checked.
 */

interface Operation {
  readonly responses: Readonly<
    Record<string, { readonly content?: Readonly<Record<string, { readonly schema?: object }>> }>
  >
}
interface Document {
  readonly paths: Readonly<Record<string, Readonly<Record<string, Operation>>>>
  readonly components: object
}

export interface Contract {
  /** Throws, naming the operation and what is wrong, when the response is not what the document says. */
  readonly check: (method: string, url: string, status: number, contentType: string | null, body: unknown) => void
}

const makeContract = (document: Document): Contract => {
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  const routes = Object.keys(document.paths).map((template) => ({
    template,
    pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`)
  }))
  const validators = new Map<string, ValidateFunction>()
  const validatorFor = (key: string, schema: object) => {
    let validate = validators.get(key)
    // The response's schema refers to #/components/...: compile it inside a copy of the document's root.
    if (validate === undefined)
      validators.set(key, (validate = ajv.compile({ ...schema, components: document.components })))
    return validate
  }
  return {
    check: (method, url, status, contentType, body) => {
      const path = new URL(url, "http://herald").pathname
      const route = routes.find((r) => r.pattern.test(path))
      const operation = route && document.paths[route.template][method.toLowerCase()]
      if (route === undefined || operation === undefined) return
      const name = `${method} ${route.template}`
      const response =
        operation.responses[String(status)] ??
        operation.responses[`${String(status)[0]}XX`] ??
        operation.responses.default
      if (response === undefined)
        throw new Error(
          `${name} answered ${status}, which the OpenAPI document does not list (${Object.keys(operation.responses).join(", ")}): ${JSON.stringify(body).slice(0, 300)}`
        )
      const schema = response.content?.["application/json"]?.schema
      if (schema === undefined || !contentType?.includes("json")) return
      const validate = validatorFor(`${name} ${status}`, schema)
      if (!validate(body))
        throw new Error(
          `${name} ${status}: the body does not match the OpenAPI document: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 500)}`
        )
    }
  }
}

const contracts = new Map<string, Promise<Contract>>()

/** The contract of the host at `origin`, read once from the document it serves. */
export const contractOf = (origin: string): Promise<Contract> => {
  let contract = contracts.get(origin)
  if (contract === undefined) {
    contract = fetch(`${origin}/api/v1/openapi.json`).then(async (response) =>
      makeContract((await response.json()) as Document)
    )
    contracts.set(origin, contract)
  }
  return contract
}
