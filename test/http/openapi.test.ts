import { OpenApi } from "effect/http-api"
import { describe, expect, it } from "vitest"
import { HeraldApi } from "../../hosts/http/api.ts"
import { catalogue, errorCodes } from "../../domain/errors.ts"

interface Document {
  readonly components: { readonly schemas: Record<string, { readonly properties?: Record<string, any> }> }
  readonly paths: Record<
    string,
    Record<
      string,
      { readonly responses: Record<string, { readonly content?: any; readonly headers?: Record<string, unknown> }> }
    >
  >
}

const document = OpenApi.fromApi(HeraldApi) as unknown as Document

describe("the OpenAPI document's errors", () => {
  it("names each status's envelope once, meaningfully, with the catalogue's codes of that status", () => {
    const names = Object.keys(document.components.schemas)
    expect(names.filter((n) => /_\d+$/.test(n))).toEqual([])
    const notFound = document.components.schemas.NotFoundError!
    expect(notFound.properties!.error.properties.code.enum).toEqual(
      errorCodes.filter((c) => catalogue[c].status === 404)
    )
  })

  it("every endpoint's error responses point at those envelopes; 401 carries WWW-Authenticate", () => {
    for (const [path, methods] of Object.entries(document.paths))
      for (const [method, operation] of Object.entries(methods))
        for (const [status, response] of Object.entries(operation.responses)) {
          if (Number(status) < 400) continue
          expect(response.content["application/json"].schema.$ref, `${method} ${path} ${status}`).toMatch(
            /^#\/components\/schemas\/[A-Za-z]+Error$/
          )
          if (status === "401")
            expect(Object.keys(response.headers ?? {}), `${method} ${path}`).toContain("www-authenticate")
        }
  })
})
