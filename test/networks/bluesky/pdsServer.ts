// A real PDS and PLC (@atproto/dev-env's TestNetworkNoAppView), in a process of its own: importing
// dev-env loads @atproto/bsky and with it another sharp (libvips 8.15), and two libvips in one process
// can abort it (seen: SIGABRT in a test worker that also ran Herald's sharp). Started by pds.ts; it
// prints {"url"} (or {"error"}) on one line, and stops when its stdin closes.
const started = async () => {
  const { TestNetworkNoAppView } = await import("@atproto/dev-env")
  return TestNetworkNoAppView.create({ pds: JSON.parse(process.argv[2] ?? "{}") as Record<string, unknown> })
}

started().then(
  (network) => {
    process.stdout.write(`${JSON.stringify({ url: network.pds.url })}\n`)
    process.stdin.resume()
    process.stdin.on("end", () => void network.close().finally(() => process.exit(0)))
  },
  (error: unknown) => {
    process.stdout.write(`${JSON.stringify({ error: String((error as Error)?.message ?? error).split("\n")[0] })}\n`)
    process.exit(1)
  }
)
