// Reading Linux's process table, for the demo and its stop check.
import { readFileSync } from 'node:fs';

/** The parent of a process, from `/proc/<pid>/stat`; undefined when it is gone (or not Linux). */
export function parentOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name in parentheses may hold spaces: the fields after it are read from its end.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}
