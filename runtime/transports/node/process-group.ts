import { readdirSync, readFileSync } from 'node:fs';

/**
 * Signals and observes a child's process group, and escalates signals until a set of processes
 * is gone. The stdio client starts servers as group leaders so that, where /proc cannot be read
 * to find each descendant, one signal still reaches the server and what stayed in its group.
 */

/** Sends `signal` to every process in the group led by `pid`; false when the group is gone. */
export function signalGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(process.platform === 'win32' ? pid : -pid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * True while the group led by `pid` has a member that is still running. On Linux, members are
 * read from /proc so that zombies count as gone: where PID 1 does not reap orphans (some
 * containers), an exited grandchild stays a zombie forever and would otherwise look alive.
 */
export function groupAlive(pid: number): boolean {
  if (process.platform === 'linux') {
    const members = linuxGroupStates(pid);
    if (members !== undefined) {
      return members.some((state) => state !== 'Z' && state !== 'X');
    }
  }
  try {
    process.kill(process.platform === 'win32' ? pid : -pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Process states (the `stat` state letter) of the group's members, or undefined without /proc. */
function linuxGroupStates(pgid: number): string[] | undefined {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return undefined;
  }
  const states: string[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) {
      continue;
    }
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // The command name is parenthesised and may contain spaces, so fields start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid) {
      states.push(fields[0]!);
    }
  }
  return states;
}

/** Resolves once `check()` is false or `timeoutMs` has passed; true when `check()` turned false. */
export async function waitUntilFalse(check: () => boolean, timeoutMs: number, intervalMs = 25): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (check()) {
    if (Date.now() >= deadline) {
      return false;
    }
    await new Promise<void>((resolve) => setTimeout(resolve, intervalMs));
  }
  return true;
}

/** What the escalation needs to see and signal: a process tree, or a group where /proc is missing. */
export interface Terminable {
  /**
   * The members still running, ascending; `thorough` asks for the costlier search (the tree
   * scans environments for its marker), which runs once per stage.
   */
  running(thorough: boolean): number[];
  signal(pids: readonly number[], signal: NodeJS.Signals): void;
}

/** The waits of {@link terminate}: how long each signal has before the next one is sent. */
export interface EscalationTimeouts {
  /** After SIGINT, before SIGTERM. */
  readonly interruptMs: number;
  /** After SIGTERM, before SIGKILL. */
  readonly terminateMs: number;
}

/** How long processes sent SIGKILL may take to disappear before terminate returns anyway. */
const KILL_WAIT_MS = 500;
/** How often the members are looked up again while a signal takes effect. */
const POLL_MS = 20;

/**
 * Ends every member of `target`: SIGINT, then SIGTERM to those still running after
 * `interruptMs`, then SIGKILL to those still running after `terminateMs`. Members found while
 * waiting (children started in the meantime) get the next signal. Resolves with the pids that
 * needed SIGKILL, ascending, once they are gone (or after a last short wait).
 */
export async function terminate(target: Terminable, timeouts: EscalationTimeouts): Promise<number[]> {
  const stages: [NodeJS.Signals, number][] = [['SIGINT', timeouts.interruptMs], ['SIGTERM', timeouts.terminateMs]];
  for (const [signal, waitMs] of stages) {
    const running = target.running(true);
    if (running.length === 0) {
      return [];
    }
    target.signal(running, signal);
    if (await waitUntilFalse(() => target.running(false).length > 0, waitMs, POLL_MS)) {
      return [];
    }
  }
  const stubborn = target.running(true);
  target.signal(stubborn, 'SIGKILL');
  await waitUntilFalse(() => target.running(false).length > 0, KILL_WAIT_MS, POLL_MS);
  return stubborn;
}

/** The process group led by `pid` as a {@link Terminable}, for platforms without /proc. */
export function processGroup(pid: number): Terminable {
  return {
    running: () => (groupAlive(pid) ? [pid] : []),
    signal: (_pids, signal) => {
      signalGroup(pid, signal);
    },
  };
}
