import { readdirSync, readFileSync } from 'node:fs';
import type { Terminable } from './process-group.js';

/**
 * The processes a stdio server started, found through /proc on Linux. A process group does not
 * hold them all: a descendant started with `detached: true` or through setsid(1) leads a
 * session of its own, and once its parent exits it is reparented to init, so its ancestry is
 * lost. The tree therefore remembers every descendant it has seen (by pid and start time, so a
 * reused pid is not mistaken for it), and also recognises descendants by the marker variable
 * the client puts in the server's environment, which children inherit.
 */

/** One line of /proc/<pid>/stat, reduced to what the tree needs. */
interface ProcessEntry {
  readonly pid: number;
  readonly ppid: number;
  readonly pgid: number;
  readonly sid: number;
  /** The state letter; Z (zombie) and X (dead) count as gone. */
  readonly state: string;
  /** Start time in clock ticks since boot, which tells a reused pid apart. */
  readonly start: string;
}

/** An environment variable that marks a server's descendants. */
export interface TreeMarker {
  readonly name: string;
  readonly value: string;
}

/** True when /proc can be read, so that {@link ProcessTree} can find descendants. */
export function hasProcTable(): boolean {
  return process.platform === 'linux' && readProcessEntry(process.pid) !== undefined;
}

/** Tracks the descendants of one root process; Linux only (see {@link hasProcTable}). */
export class ProcessTree implements Terminable {
  private readonly root: number;
  private readonly marker: Buffer | undefined;
  /** Start time of the root, once read; undefined when the root was never seen. */
  private rootStart: string | undefined;
  /** Every member seen and still present, by pid, with its start time. */
  private readonly known = new Map<number, string>();

  constructor(root: number, marker?: TreeMarker) {
    this.root = root;
    this.marker = marker === undefined ? undefined : Buffer.from(`${marker.name}=${marker.value}\0`);
    const entry = readProcessEntry(root);
    if (entry !== undefined) {
      this.rootStart = entry.start;
      this.known.set(root, entry.start);
    }
  }

  /**
   * Re-reads /proc and returns the members still running (zombies excluded), ascending. Members
   * are the root, every process whose parent is a member, everything in the root's process group
   * or session, and, when `scanEnvironment` is set, every process carrying the marker.
   * Reading environments costs a file per process, so callers do it at stage changes only.
   */
  running(scanEnvironment: boolean): number[] {
    const table = readProcessTable();
    for (const [pid, start] of this.known) {
      if (table.get(pid)?.start !== start) {
        this.known.delete(pid);
      }
    }
    const rootEntry = table.get(this.root);
    // A root pid now used by an unrelated process means its old group and session are gone too.
    const rootIsOurs = rootEntry === undefined || rootEntry.start === this.rootStart;
    const children = new Map<number, ProcessEntry[]>();
    const queue: ProcessEntry[] = [];
    for (const entry of table.values()) {
      if (entry.pid === process.pid || entry.pid <= 1) {
        continue;
      }
      const siblings = children.get(entry.ppid);
      if (siblings === undefined) {
        children.set(entry.ppid, [entry]);
      } else {
        siblings.push(entry);
      }
      const member = this.known.has(entry.pid)
        || (rootIsOurs && (entry.pgid === this.root || entry.sid === this.root))
        || (scanEnvironment && this.carriesMarker(entry.pid));
      if (member) {
        queue.push(entry);
      }
    }
    for (const entry of queue) {
      this.known.set(entry.pid, entry.start);
    }
    for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
      for (const child of children.get(next.pid) ?? []) {
        if (this.known.get(child.pid) !== child.start) {
          this.known.set(child.pid, child.start);
          queue.push(child);
        }
      }
    }
    const running: number[] = [];
    for (const pid of this.known.keys()) {
      const state = table.get(pid)?.state;
      if (state !== undefined && state !== 'Z' && state !== 'X') {
        running.push(pid);
      }
    }
    return running.sort((a, b) => a - b);
  }

  /** Sends `signal` to each of `pids` that still is the member the tree knows. */
  signal(pids: readonly number[], signal: NodeJS.Signals): void {
    for (const pid of pids) {
      const start = this.known.get(pid);
      if (start === undefined || readProcessEntry(pid)?.start !== start) {
        continue;
      }
      try {
        process.kill(pid, signal);
      } catch {
        // It exited in between.
      }
    }
  }

  private carriesMarker(pid: number): boolean {
    if (this.marker === undefined) {
      return false;
    }
    try {
      return readFileSync(`/proc/${pid}/environ`).includes(this.marker);
    } catch {
      // Another user's process, or gone.
      return false;
    }
  }
}

function readProcessTable(): Map<number, ProcessEntry> {
  const table = new Map<number, ProcessEntry>();
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return table;
  }
  for (const name of names) {
    const pid = Number(name);
    if (Number.isInteger(pid) && pid > 0) {
      const entry = readProcessEntry(pid);
      if (entry !== undefined) {
        table.set(pid, entry);
      }
    }
  }
  return table;
}

function readProcessEntry(pid: number): ProcessEntry | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name is parenthesised and may contain spaces, so fields start after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields from the state on: state ppid pgrp session tty tpgid flags minflt cminflt majflt
  // cmajflt utime stime cutime cstime priority nice threads itrealvalue starttime.
  return {
    pid,
    ppid: Number(fields[1]),
    pgid: Number(fields[2]),
    sid: Number(fields[3]),
    state: fields[0] ?? 'X',
    start: fields[19] ?? '',
  };
}
