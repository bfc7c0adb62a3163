/**
 * CPU-seconds of the processes a benchmark drives, which survive a busy machine better than wall
 * time: a process of ours (Linux /proc), the PostgreSQL server's, and where the server spent them.
 */
import { readdir, readFile } from 'node:fs/promises';
import pg from 'pg';

const TICKS_PER_SECOND = 100;

/** utime, stime, cutime, cstime and ppid of a process, or null when it is gone. */
async function procStat(pid: number) {
  try {
    const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1].split(' ');
    return { ppid: Number(fields[1]), own: (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND, reaped: (Number(fields[13]) + Number(fields[14])) / TICKS_PER_SECOND };
  } catch {
    return null;
  }
}

/**
 * CPU time (user + system) a process has used so far, in seconds (0 where /proc is missing), with
 * its child processes', running or ended (the console's server bundles its import workers with
 * esbuild, a process of its own).
 */
export async function cpuSeconds(pid: number | undefined): Promise<number> {
  if (pid === undefined) return 0;
  const own = await procStat(pid);
  if (!own) return 0;
  let total = own.own + own.reaped;
  for (const child of await childrenOf(pid)) total += (await procStat(child))?.own ?? 0;
  return total;
}

/** The processes whose parent is `ppid`. */
async function childrenOf(ppid: number) {
  const found: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = await procStat(Number(name));
    if (stat?.ppid === ppid) found.push(Number(name));
  }
  return found;
}

/**
 * The PostgreSQL server of `url` (on this machine): the postmaster's own CPU and its children's,
 * those still running and those ended (counted in the postmaster's reaped time), so a backend that
 * closed between two readings is not lost.
 */
export async function postgresServer(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let postmaster: number;
  try {
    const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
    postmaster = (await procStat(rows[0].pid))!.ppid;
  } finally {
    await client.end();
  }
  return {
    postmaster,
    /** CPU-seconds the whole server has used so far. */
    async cpuSeconds() {
      const own = await procStat(postmaster);
      if (!own) return 0;
      let total = own.own + own.reaped;
      for (const child of await childrenOf(postmaster)) total += (await procStat(child))?.own ?? 0;
      return total;
    },
  };
}

/**
 * Where a PostgreSQL server spends its CPU while `work` runs: every 200 ms each backend's CPU since
 * the last look is put down to the statement it is running then (its first words), parallel
 * workers to their leader's statement, background processes to their kind.
 */
export async function postgresProfile<T>(url: string, work: () => Promise<T>): Promise<{ value: T; bySteps: [string, number][]; total: number }> {
  const server = await postgresServer(url);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const last = new Map<number, number>();
  const bySteps = new Map<string, number>();
  const look = async () => {
    const { rows } = await client.query<{ pid: number; leader: number | null; kind: string; query: string | null; mine: boolean }>(
      `select a.pid, a.leader_pid as leader, a.backend_type as kind, coalesce(l.query, a.query) as query, a.pid = pg_backend_pid() as mine
         from pg_stat_activity a left join pg_stat_activity l on l.pid = a.leader_pid`,
    );
    for (const row of rows) {
      const now = (await procStat(row.pid))?.own;
      if (now === undefined) continue;
      const before = last.get(row.pid);
      last.set(row.pid, now);
      if (before === undefined || now === before) continue;
      const step = row.mine ? '(this profile)' : row.kind === 'client backend' || row.kind === 'parallel worker' ? stepOf(row.query ?? '') : row.kind;
      bySteps.set(step, (bySteps.get(step) ?? 0) + now - before);
    }
  };
  const started = await server.cpuSeconds();
  await look();
  let running = true;
  const sampling = (async () => {
    while (running) {
      await new Promise((r) => setTimeout(r, 200));
      await look();
    }
  })();
  try {
    const value = await work();
    return { value, bySteps: [...bySteps].sort((a, b) => b[1] - a[1]), total: (await server.cpuSeconds()) - started };
  } finally {
    running = false;
    await sampling;
    await client.end();
  }
}

/** A statement's first words, its literals and names of load tables left out: what kind of step it is. */
function stepOf(query: string) {
  return query
    .replace(/\s+/g, ' ')
    .replace(/"?pipes_load_\d+"?/g, 'pipes_load')
    .replace(/'[^']*'/g, "'…'")
    .replace(/\$\d+/g, '$')
    .trim()
    .slice(0, 70);
}

/** The most memory a process has held resident so far (Linux VmHWM), in bytes; 0 where unknown. */
export async function peakRssBytes(pid: number | undefined): Promise<number> {
  if (pid === undefined) return 0;
  try {
    const line = (await readFile(`/proc/${pid}/status`, 'utf8')).split('\n').find((l) => l.startsWith('VmHWM:'));
    return line ? Number(line.split(/\s+/)[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}
