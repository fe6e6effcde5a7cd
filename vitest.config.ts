import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    reporters: ["default"],
    projects: [
      { extends: true, test: { name: "herald", include: ["test/**/*.test.ts"] } },
      // The HTTP suites again, on the Postgres adapters (a fresh database per host): the same flows on both.
      {
        extends: true,
        test: {
          name: "http-on-postgres",
          include: ["test/http/**/*.test.ts", "test/mcp/oauth.test.ts"],
          env: { HERALD_TEST_BACKEND: "postgres" }
        }
      }
    ]
  }
})
