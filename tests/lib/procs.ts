import { readdirSync, readFileSync } from 'node:fs';

/** A process as /proc shows it: for tests that watch, measure or kill what a stack started. */
export interface Proc {
  pid: number;
  ppid: number;
  /** The program's name (at most 15 characters, as the kernel keeps it). */
  comm: string;
  /** R, S, D, Z...: a zombie (Z) has exited. */
  state: string;
  /** Clock ticks after boot: a new process under a reused pid has another. */
  start: string;
}

export function proc(pid: number): Proc | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { pid, ppid: Number(fields[1]), comm, state: fields[0]!, start: fields[19]! };
  } catch {
    return undefined;
  }
}

/** Whether the same process (not another under its pid) still runs. */
export function stillRunning(before: Proc): boolean {
  const now = proc(before.pid);
  return now !== undefined && now.state !== 'Z' && now.start === before.start;
}

/** Every process started, directly or not, by `root`. */
export function descendants(root: number): Proc[] {
  const all = readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map((d) => proc(Number(d)))
    .filter((p): p is Proc => p !== undefined);
  const found: Proc[] = [];
  for (let parents = new Set([root]); parents.size > 0;) {
    const children = all.filter((p) => parents.has(p.ppid));
    found.push(...children);
    parents = new Set(children.map((p) => p.pid));
  }
  return found;
}

/** The command line, its arguments joined by spaces; '' when the process is gone. */
export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}

/** Resident memory in MB; 0 when the process is gone. */
export function rssMb(pid: number): number {
  try {
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : 0;
  } catch {
    return 0;
  }
}
