import { readdirSync, readFileSync } from "node:fs"

/** CPU time (user + system) of a process itself and of its finished children, in ms (Linux /proc; 100 ticks a second). */
export const cpuOf = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")
  const ms = (i: number) => (Number(fields[i - 3]) * 1000) / 100
  return { own: ms(14) + ms(15), children: ms(16) + ms(17) }
}

/** Pids of the processes whose parent is `pid` (Linux /proc), e.g. the workers of a clustered host. */
export const childrenOf = (pid: number): ReadonlyArray<number> =>
  readdirSync("/proc").filter((d) => /^\d+$/.test(d)).map(Number).filter((p) => {
    try {
      return Number(readFileSync(`/proc/${p}/stat`, "utf8").split(") ")[1]!.split(" ")[1]) === pid
    } catch {
      return false // gone meanwhile
    }
  })

/** CPU time (ms) of each running process named `command` (the PostgreSQL server's processes, say), by pid. */
export const cpuOfCommand = (command: string): ReadonlyMap<number, number> => {
  const byPid = new Map<number, number>()
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "utf8")
      if (stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")) === command) byPid.set(Number(d), cpuOf(Number(d)).own)
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
