import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time (µs) that process `pid` has used so far, all threads included, from the scheduler's
 * per-thread nanosecond counters (/proc/<pid>/task/<tid>/schedstat). Null where /proc is not
 * available, or the process is gone.
 */
export function processCpuMicros(pid: number): number | null {
  try {
    let nanos = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        const fields = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ');
        nanos += Number(fields[0]);
      } catch {
        // The thread ended between the listing and the read.
      }
    }
    return nanos / 1000;
  } catch {
    return null;
  }
}

/** CPU time (µs) this process has used so far: schedstat where available, else getrusage. */
export function ownCpuMicros(): number {
  const fromProc = processCpuMicros(process.pid);
  if (fromProc !== null) return fromProc;
  const usage = process.cpuUsage();
  return usage.user + usage.system;
}
