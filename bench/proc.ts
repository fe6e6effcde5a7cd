import { readdirSync, readFileSync } from "node:fs"

/** The fields of a /proc/<pid>/stat line after its command name, and that name. */
const parseStat = (stat: string) => ({
  command: stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")),
  fields: stat.slice(stat.lastIndexOf(")") + 2).split(" ")
})

/** CPU time (user + system) of a process itself and of its finished children, in ms, from its stat fields (100 ticks a second). */
const cpuOfFields = (fields: ReadonlyArray<string>) => {
  const ms = (i: number) => (Number(fields[i - 3]) * 1000) / 100
  return { own: ms(14) + ms(15), children: ms(16) + ms(17) }
}

/** CPU time (user + system) of a process itself and of its finished children, in ms (Linux /proc). */
export const cpuOf = (pid: number) => cpuOfFields(parseStat(readFileSync(`/proc/${pid}/stat`, "utf8")).fields)

/** CPU time (ms) of each running process named `command` (the PostgreSQL server's processes, say), by pid. */
export const cpuOfCommand = (command: string): ReadonlyMap<number, number> => {
  const byPid = new Map<number, number>()
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue
    try {
      const stat = parseStat(readFileSync(`/proc/${d}/stat`, "utf8"))
      if (stat.command === command) byPid.set(Number(d), cpuOfFields(stat.fields).own)
    } catch {
      // gone meanwhile
    }
  }
  return byPid
}

/** CPU time used between two readings of `cpuOfCommand`; a process started in between counts from zero. */
export const cpuBetween = (before: ReadonlyMap<number, number>, after: ReadonlyMap<number, number>): number => {
  let total = 0
  for (const [pid, cpu] of after) total += cpu - (before.get(pid) ?? 0)
  return total
}
