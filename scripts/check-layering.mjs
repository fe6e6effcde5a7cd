// The layering rule of DESIGN.md, checked on every test run:
// domain imports only effect (and the pure, I/O-free text libraries listed below); application imports
// domain and effect; adapters import application, domain, their own folder and their driver, never a
// host or another technology's adapter; nothing outside hosts/, test/, bench/ and scripts/ imports a host; HTTP and SQL never reach the core.
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative, resolve, dirname, sep } from "node:path"

const root = process.env.LAYERING_ROOT ?? resolve(dirname(new URL(import.meta.url).pathname), "..")
const layers = ["domain", "application", "adapters", "hosts"]
// pglite is the embedded way to run the Postgres adapter's own SQL: it hands adapters/postgres a client.
const allowedCross = new Set(["pglite->postgres"])
// Pure libraries the domain may use: text rules with no I/O, no globals, no state (X's own length counting).
const domainLibraries = new Set(["twitter-text"])
// Each network is its own technology (adapters/networks/<network>/); networks/shared holds what they all share,
// and a family's folder what its networks share (Meta's Graph API, login and containers).
// adapters/outbound is the one outbound HTTP client (with the one address guard) every adapter that calls out uses.
const sharedByAll = new Set(["outbound"])
const families = new Map([["networks/meta", new Set(["networks/facebook", "networks/instagram", "networks/threads"])]])
const technologyOf = (parts) => (parts[1] === "networks" ? `networks/${parts[2]}` : parts[1])

const files = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (name === "node_modules") return []
    return statSync(path).isDirectory() ? files(path) : path.endsWith(".ts") ? [path] : []
  })

const importRe = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g
const problems = []

for (const layer of layers) {
  let list = []
  try {
    list = files(join(root, layer))
  } catch {
    continue
  }
  for (const file of list) {
    const rel = relative(root, file)
    const text = readFileSync(file, "utf8")
    for (const m of text.matchAll(importRe)) {
      const spec = m[1] ?? m[2]
      const isRelative = spec.startsWith(".")
      const target = isRelative ? relative(root, resolve(dirname(file), spec)) : null
      const targetLayer = target?.split(sep)[0]
      const say = (why) => problems.push(`${rel}: imports "${spec}" (${why})`)
      if (layer === "domain") {
        if (isRelative ? targetLayer !== "domain" : !/^effect(\/|$)/.test(spec) && !domainLibraries.has(spec))
          say("domain imports only effect, domain and its pure libraries")
        if (/^effect\/(http|http-api|sql)/.test(spec)) say("no HTTP or SQL in domain")
      } else if (layer === "application") {
        if (isRelative && !["domain", "application"].includes(targetLayer)) say("application imports only domain")
        if (!isRelative && !/^effect(\/|$)/.test(spec)) say("application imports only effect")
        if (/^effect\/(http|http-api|sql)/.test(spec)) say("no HTTP or SQL in application")
      } else if (layer === "adapters") {
        if (isRelative && targetLayer === "hosts") say("adapters never import hosts")
        if (isRelative && targetLayer === "adapters") {
          const from = technologyOf(rel.split(sep)),
            to = technologyOf(target.split(sep))
          const inFamily = families.get(to)?.has(from) === true
          if (
            from !== to &&
            to !== "networks/shared" &&
            !sharedByAll.has(to) &&
            !inFamily &&
            !allowedCross.has(`${from}->${to}`)
          )
            say(`adapter ${from} imports adapter ${to}`)
        }
        if (isRelative && (targetLayer === "test" || targetLayer === "bench")) say("adapters never import tests")
      }
      if (layer !== "hosts" && isRelative && targetLayer === "hosts") say("nothing imports hosts")
    }
    // One name for each kind of layer an adapter offers (DESIGN.md): layer, layerConfig, layerTest.
    if (layer === "adapters")
      for (const m of text.matchAll(/^export const (\w*[lL]ayer\w*)\b/gm))
        if (!["layer", "layerConfig", "layerTest"].includes(m[1]))
          problems.push(`${rel}: exports a layer named ${m[1]} (adapters name them layer, layerConfig, layerTest)`)
    // The core reaches the machine only through ports: no Node globals either.
    if (layer === "domain" || layer === "application") {
      const code = text
        .replace(/\/\*[\s\S]*?\*\//g, "")
        .replace(/\/\/.*$/gm, "")
        .replace(/(["'`])(?:\\.|(?!\1)[^\\])*\1/g, '""')
      for (const m of code.matchAll(/\b(Buffer|process|require|__dirname|setTimeout|setInterval|setImmediate)\b/g))
        problems.push(`${rel}: uses Node's ${m[1]} (the core reaches the machine only through ports)`)
    }
  }
}

if (problems.length > 0) {
  console.error("Layering check failed:\n" + problems.map((p) => "  " + p).join("\n"))
  process.exit(1)
}
console.log("Layering check: domain -> application -> adapters -> hosts holds.")
