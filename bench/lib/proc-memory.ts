import { readFileSync } from 'node:fs';

/**
 * Peak resident set size (bytes) of process `pid` so far: the kernel's high-water mark
 * (`VmHWM` in /proc/<pid>/status), so no sampling can miss a short peak. Null where /proc is
 * not available, or the process is gone.
 */
export function peakRssBytes(pid: number): number | null {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match === null ? null : Number(match[1]) * 1024;
  } catch {
    return null;
  }
}
