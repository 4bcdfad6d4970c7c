import { readFileSync } from "node:fs";
import pg from "pg";

/**
 * CPU time (user + system, µs) a process has used so far, from /proc/<pid>/stat: the machine has 2
 * cores shared by the API, its database and the load generator, so a rate is bounded by the CPU
 * each create costs them together, whatever the wall clock says under other load.
 */
export function processCpu(pid: number): number {
  // After the command's closing parenthesis: state is field 0, utime field 11 and stime field 12.
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100; // clock ticks of 10 ms
}

/** This process's own CPU time so far (µs): the load generator's. */
export function ownCpu(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

/**
 * CPU time (µs) of the PostgreSQL backends serving one database on this machine, each by its pid
 * (pg_stat_activity); a local server only. The readings of two moments are subtracted by `since`.
 */
export async function databaseBackendsCpu(databaseUrl: string): Promise<Map<number, number>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
    );
    const cpu = new Map<number, number>();
    for (const { pid } of rows) {
      try {
        cpu.set(pid, processCpu(pid));
      } catch {
        // gone meanwhile
      }
    }
    return cpu;
  } finally {
    await client.end();
  }
}

/** The CPU the backends read in `after` have used since `before` (a backend new since counts whole). */
export const backendsCpuSince = (before: Map<number, number>, after: Map<number, number>): number =>
  [...after].reduce((sum, [pid, cpu]) => sum + cpu - (before.get(pid) ?? 0), 0);
