import { execFile } from "node:child_process"
import { constants, existsSync, readdirSync, readFileSync } from "node:fs"
import { copyFile, mkdir, readdir, rename, rm } from "node:fs/promises"
import { createRequire } from "node:module"
import { dirname, join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { PGlite } from "@electric-sql/pglite"

/*
 * A freshly initialised PGlite data directory, kept once per PGlite version and copied for each new
 * data dir: PGlite's initdb costs ~4 s of CPU and a second WebAssembly instance (~150 MB that the
 * process keeps), a copy of the 40 MB result a few tenths of a second. `npm install` makes it
 * (postinstall runs this file with bare node); otherwise the first new data dir makes it, in a child
 * process so the host never holds initdb's memory.
 */

const pgliteEntry = createRequire(import.meta.url).resolve("@electric-sql/pglite")
const pglitePackage = dirname(dirname(pgliteEntry))
const pgliteVersion = (JSON.parse(readFileSync(join(pglitePackage, "package.json"), "utf8")) as { version: string })
  .version

/** Where the template lives by default: node_modules/.cache/herald/pglite-<version>, beside PGlite itself. */
export const defaultTemplateDir = join(dirname(dirname(pglitePackage)), ".cache", "herald", `pglite-${pgliteVersion}`)

const isInitialised = (dir: string) => existsSync(join(dir, "PG_VERSION"))

/** Runs initdb into `dir` in this process (the child's side of `ensureTemplate`). */
const initdbInto = async (dir: string) => {
  const db = await PGlite.create(dir)
  await db.close()
}

/**
 * The template directory, made first when missing: initdb in a child process into a sibling
 * directory, renamed into place when complete (so a half-made template is never used, and of two
 * processes making it at once the first rename wins).
 */
export const ensureTemplate = async (templateDir: string): Promise<string> => {
  if (isInitialised(templateDir)) return templateDir
  const building = `${templateDir}.${process.pid}.tmp`
  await mkdir(dirname(templateDir), { recursive: true })
  await rm(building, { recursive: true, force: true })
  try {
    await new Promise<void>((resolve, reject) =>
      execFile(
        process.execPath,
        [fileURLToPath(import.meta.url), building],
        { timeout: 120_000 },
        (error, _stdout, stderr) =>
          error === null ? resolve() : reject(new Error(`PGlite initdb failed: ${stderr.trim() || error.message}`))
      )
    )
    await rename(building, templateDir).catch((error: NodeJS.ErrnoException) => {
      if (!isInitialised(templateDir)) throw error
    })
  } finally {
    await rm(building, { recursive: true, force: true })
  }
  return templateDir
}

/**
 * Copies a directory tree, eight files at a time (fs.cp copies one after another; for the template's
 * ~1,000 files this was 2-4 times faster), as copy-on-write clones where the file system has them.
 */
const copyTree = async (from: string, to: string) => {
  const entries = await readdir(from, { withFileTypes: true, recursive: true })
  const inside = (entry: (typeof entries)[number]) => join(relative(from, entry.parentPath), entry.name)
  await mkdir(to, { recursive: true })
  for (const entry of entries) if (entry.isDirectory()) await mkdir(join(to, inside(entry)), { recursive: true })
  const files = entries.filter((entry) => entry.isFile()).map(inside)
  let next = 0
  const worker = async () => {
    while (next < files.length) {
      const file = files[next++]!
      await copyFile(join(from, file), join(to, file), constants.COPYFILE_FICLONE)
    }
  }
  await Promise.all(Array.from({ length: 8 }, worker))
}

const isMissingOrEmpty = (dir: string) => !existsSync(dir) || readdirSync(dir).length === 0

/**
 * Gives a new data dir its initialised contents from the template (copied beside it, then renamed
 * into place, so a crash mid-copy leaves no half data dir). Leaves an existing data dir alone.
 * Returns false when it did nothing (an existing data dir, or no template to be had).
 */
export const initialiseFromTemplate = async (dataDir: string, templateDir: string): Promise<boolean> => {
  if (!isMissingOrEmpty(dataDir)) return false
  // A template that cannot be made (node_modules read-only, say) leaves initdb to PGlite, in place.
  const template = await ensureTemplate(templateDir).catch(() => null)
  if (template === null) return false
  const copying = `${dataDir}.copying`
  await rm(copying, { recursive: true, force: true })
  await copyTree(template, copying)
  await rm(dataDir, { recursive: true, force: true })
  await rename(copying, dataDir)
  return true
}

// `node adapters/pglite/template.ts [dir]`: with a dir, initdb into it (the child of ensureTemplate);
// without, make the default template (npm's postinstall), never failing the install over it.
if (import.meta.main) {
  const dir = process.argv[2]
  if (dir !== undefined)
    await initdbInto(dir).catch((error: unknown) => {
      console.error(error instanceof Error ? error.message : String(error))
      process.exitCode = 1
    })
  else
    await ensureTemplate(defaultTemplateDir).then(
      (made) => console.log(`PGlite template ready in ${made}`),
      (error: unknown) =>
        console.log(
          `No PGlite template made (the first start makes one): ${error instanceof Error ? error.message : String(error)}`
        )
    )
}
