import { readdirSync, readFileSync } from 'node:fs';

/**
 * Signals and observes a child's process group. The stdio client starts servers as group
 * leaders so that one signal reaches the server and everything it spawned.
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

/**
 * Ends the whole group led by `pid`: SIGTERM, then SIGKILL if any member is still running
 * after `killTimeoutMs`. Resolves once the group is gone or SIGKILL was sent.
 */
export async function terminateGroup(pid: number, killTimeoutMs: number): Promise<void> {
  if (!groupAlive(pid)) {
    return;
  }
  signalGroup(pid, 'SIGTERM');
  if (await waitUntilFalse(() => groupAlive(pid), killTimeoutMs)) {
    return;
  }
  signalGroup(pid, 'SIGKILL');
  await waitUntilFalse(() => groupAlive(pid), 500);
}
