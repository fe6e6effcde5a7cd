import { afterAll, beforeAll } from "@effect/vitest"
import { Effect, Exit, Layer, Scope } from "effect"

/**
 * Builds `backend` once for the whole test file and keeps it open until the file ends. Suites that
 * pass the returned MemoMap to `layer(..., { memoMap })` reuse it instead of building their own.
 */
export const shareAcrossSuites = <A, E>(
  backend: Layer.Layer<A, E>,
  options: { readonly timeoutMs?: number; readonly afterClose?: () => void } = {}
): Layer.MemoMap => {
  const timeoutMs = options.timeoutMs ?? 120_000
  const memoMap = Layer.makeMemoMapUnsafe()
  const scope = Scope.makeUnsafe()
  beforeAll(() => Effect.runPromise(Effect.asVoid(Layer.buildWithMemoMap(backend, memoMap, scope))), timeoutMs)
  afterAll(async () => {
    await Effect.runPromise(Scope.close(scope, Exit.void))
    options.afterClose?.()
  }, timeoutMs)
  return memoMap
}
