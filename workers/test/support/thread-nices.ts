import fs from 'node:fs';

/** The nice value of each thread of a process (field 19 of /proc/<pid>/task/<tid>/stat); Linux only. */
export function threadNices(pid: number | 'self'): number[] {
  return fs.readdirSync(`/proc/${pid}/task`).flatMap((tid) => {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      return [Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])];
    } catch {
      return []; // the thread ended meanwhile
    }
  });
}
