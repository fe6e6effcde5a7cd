import sharp from "sharp"
import { existsSync, mkdirSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { Effect } from "effect"
import { type Browser, chromium, type Page } from "playwright-core"
import { expect } from "vitest"
import { SentMail } from "../../adapters/memory/RecordingMailer.ts"
import { defaultPipelineOptions } from "../../application/usecases/publishing/options.ts"
import { publishDueTargets } from "../../application/usecases/publishing/worker.ts"
import type { HttpHost } from "../support/httpHost.ts"

export const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium"
export const chromiumAvailable = existsSync(executablePath)
if (!chromiumAvailable && process.env.CI)
  throw new Error(`Chromium is missing at ${executablePath}: .ci/run installs Debian's chromium`)
if (!chromiumAvailable)
  console.warn(
    `\n*** Chromium not found at ${executablePath}: the web page tests are skipped (apt-get install chromium) ***\n`
  )

export const launch = (): Promise<Browser> =>
  chromium.launch({
    executablePath,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run"
    ]
  })

/** Where the tests keep their screenshots (README, "The people's app"); git-ignored, kept by CI as artifacts. */
export const SCREENSHOTS = new URL("../../test-artifacts/screenshots/", import.meta.url).pathname

/** The README's screenshots (docs/screens/): small palette PNGs of the first screen, redrawn only with UPDATE_SCREENS=1. */
const SCREENS = new URL("../../docs/screens/", import.meta.url).pathname
export const keepScreen = async (page: Page, name: string) => {
  if (process.env.UPDATE_SCREENS !== "1") return
  mkdirSync(SCREENS, { recursive: true })
  await sharp(await page.screenshot())
    .png({ palette: true, compressionLevel: 9 })
    .toFile(`${SCREENS}${name}.png`)
}

export const screenshot = async (page: Page, name: string) => {
  mkdirSync(SCREENSHOTS, { recursive: true })
  await page.screenshot({ path: `${SCREENSHOTS}${name}.png`, fullPage: true })
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8")

interface AxeViolation {
  readonly id: string
  readonly impact: string | null
  readonly help: string
  readonly nodes: ReadonlyArray<{ readonly target: ReadonlyArray<string> }>
}

/** Runs axe-core in the page (as an evaluated script: the page's own policy does not apply) and fails on serious or critical violations. */
export const expectAccessible = async (page: Page) => {
  await page.evaluate(axeSource)
  const violations = (await page.evaluate(
    "axe.run(document, { resultTypes: ['violations'] }).then(r => r.violations)"
  )) as ReadonlyArray<AxeViolation>
  const grave = violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)
  expect(grave).toEqual([])
  // The moderate and minor ones are logged for the README's list (each says why it stays).
  const lesser = violations.filter((v) => v.impact === "moderate" || v.impact === "minor")
  if (lesser.length > 0) console.log(`axe ${page.url()}: ${lesser.map((v) => `${v.id} (${v.impact})`).join(", ")}`)
}

/** The bytes a page load moved over the wire (document, script, style, images), from the browser's own resource timing. */
export const transferredBytes = async (page: Page): Promise<number> =>
  (await page.evaluate(`(() => {
    const nav = performance.getEntriesByType("navigation")[0]
    const resources = performance.getEntriesByType("resource")
    return [nav, ...resources].reduce((sum, e) => sum + (e.transferSize || e.encodedBodySize || 0), 0)
  })()`)) as number

/** The last mail to `to` whose text matches, waiting for it to be sent. */
export const mailTo = async (host: HttpHost, to: string, pattern: RegExp) => {
  for (let i = 0; i < 300; i++) {
    const mail = await host.run(
      Effect.map(SentMail, (s) => [...s.all()].reverse().find((m) => m.to === to && pattern.test(m.text)))
    )
    if (mail !== undefined) return mail
    await new Promise((r) => setTimeout(r, 10))
  }
  throw new Error(`no mail to ${to} matching ${pattern}`)
}

/** Claims the workspace in the browser from the e-mailed link; the page lands on the queue. */
export const claimInBrowser = async (host: HttpHost, page: Page, email: string) => {
  const mail = await mailTo(host, email, /\/claim\?token=/)
  await page.goto(host.local(/https?:\/\/\S+\/claim\?token=\S+/.exec(mail.text)![0]))
  await page.getByRole("button", { name: "Claim workspace" }).click()
  await page.waitForURL("**/app")
}

/** Follows a link of the app's navigation as a person would: on a phone the links are behind the Menu button. */
export const followNav = async (page: Page, name: string) => {
  const menu = page.locator(".menu-toggle")
  if ((await menu.isVisible()) && (await menu.getAttribute("aria-expanded")) !== "true") await menu.click()
  await page.getByRole("link", { name, exact: true }).click()
}

/** One pass of the publishing worker (the test host runs none): what is due now goes out. */
export const publishDue = (host: HttpHost) => host.run(publishDueTargets(defaultPipelineOptions, 50))
