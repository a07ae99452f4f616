/** What one job has: its private work folder, a signal that aborts it, and when its time is up. */
export interface Job {
  workdir: string;
  signal: AbortSignal;
  deadline: number;
}

/**
 * What is left before a deadline, for a program's own time limit: never less than a second, so that a
 * job near its end still gives a program the moment it needs to start and be stopped cleanly.
 */
export function timeLeft(deadline: number): number {
  return Math.max(1000, deadline - Date.now());
}
