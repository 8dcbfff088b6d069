/**
 * The CPU time of processes beside the bench's own (Linux `/proc`): what a PostgreSQL server spent while a load ran,
 * so a load probe can say where a conversation's CPU goes on a machine whose cores the workers, the database and the
 * model server share. Undefined where the system does not tell it.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";

/** Clock ticks a second of `/proc/<pid>/stat`'s times (USER_HZ: 100 on every Linux the bench runs on). */
const TICKS_PER_SECOND = 100;

/** Fields of `/proc/<pid>/stat` after the command's closing parenthesis (a command may hold spaces). */
function statFields(pid: number): string[] | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    return text.slice(text.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  }
}

/**
 * CPU ms `pid` and its children have used so far: its own user and system time, its reaped children's (a backend
 * that ended is counted in its parent's), and the live children's own.
 */
export function treeCpuMs(pid: number): number | undefined {
  const own = statFields(pid);
  if (!own) return undefined;
  // From the field after the command: state(0) ppid(1) … utime(11) stime(12) cutime(13) cstime(14).
  let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(Number(entry));
    if (fields && Number(fields[1]) === pid) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return (ticks * 1000) / TICKS_PER_SECOND;
}

/** The pid of the PostgreSQL server at `url` when it runs on this machine and its data folder can be read. */
export async function postgresPid(url: string): Promise<number | undefined> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    const { rows } = await client.query<{ setting: string }>(
      "SELECT setting FROM pg_settings WHERE name = 'data_directory'",
    );
    const pid = Number(readFileSync(path.join(rows[0]!.setting, "postmaster.pid"), "utf8").split("\n", 1)[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  } finally {
    await client.end().catch(() => undefined);
  }
}
