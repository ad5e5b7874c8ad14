// The CPU time of a local PostgreSQL server: its postmaster and every backend it started, read from /proc. With it
// the write benchmark says how a write's cost splits between the app server and the database (issue 11).
import fs from 'node:fs';
import path from 'node:path';

/** utime, stime, cutime and cstime (fields 14-17) of a /proc stat line, in clock ticks of 10 ms */
function ticks(stat: string, withChildren: boolean): { ppid: number; ticks: number } {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const own = Number(fields[11]) + Number(fields[12]);
  const reaped = withChildren ? Number(fields[13]) + Number(fields[14]) : 0;
  return { ppid: Number(fields[1]), ticks: own + reaped };
}

/** A clock of the server's CPU in ms, for a data directory made by scripts/postgres-temp.sh. */
export function postgresCpuClock(dataDir: string): () => number {
  const postmaster = Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  return () => {
    let total = 0;
    for (const entry of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      let stat: string;
      try {
        stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      } catch {
        continue; // ended meanwhile
      }
      const pid = Number(entry);
      // the postmaster's reaped children count in its cutime/cstime, the live ones in their own
      const { ppid, ticks: t } = ticks(stat, pid === postmaster);
      if (pid === postmaster || ppid === postmaster) total += t;
    }
    return total * 10;
  };
}
