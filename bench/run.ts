/*
 * `npm run bench [-- <name> [options]]`: runs the named benchmark, or all of them. Each prints its
 * figures and ends with one line of JSON (figure name -> number) for run-to-run comparison.
 */
const benches: Record<string, () => Promise<unknown>> = {
  scheduler: () => import("./scheduler.ts").then((m) => m.run()),
  media: () => import("./media.ts").then((m) => m.run()),
  posts: () => import("./posts.ts").then((m) => m.run()),
  webhooks: () => import("./webhooks.ts").then((m) => m.run()),
  embedded: () => import("./embedded.ts").then((m) => m.run()),
  planning: () => import("./planning.ts").then((m) => m.run()),
  limits: () => import("./limits.ts").then((m) => m.run()),
  metrics: () => import("./metrics.ts").then((m) => m.run())
}

const name = process.argv[2]
const chosen = name === undefined || name.startsWith("-") ? Object.keys(benches) : [name]
for (const n of chosen) {
  const bench = benches[n]
  if (bench === undefined) {
    console.error(`Unknown benchmark "${n}". Known: ${Object.keys(benches).join(", ")}`)
    process.exit(2)
  }
  await bench()
}
