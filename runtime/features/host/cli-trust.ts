/**
 * The CLI's side of host trust: asking on a terminal whether to use the project and local
 * servers nobody approved yet, and saying how to approve them when there is no terminal.
 */
import { createInterface } from 'node:readline';
import type { CliIo } from './cli-auth.js';
import { describeApproval, type ApprovalRequest, type TrustStore } from './trust.js';

/** The environment switch that approves every project server for one run, as `--approve` does. */
export const APPROVE_ENV = 'MCPGEN_APPROVE';

/** True when `--approve` was given or MCPGEN_APPROVE is `1` or `true`. */
export function approveAllRequested(flag: boolean, env: Readonly<Record<string, string | undefined>>): boolean {
  const value = env[APPROVE_ENV]?.toLowerCase();
  return flag || value === '1' || value === 'true';
}

/**
 * Shows each request and asks y/N on a terminal (stdin and stderr both terminals), remembering
 * every yes in `store`; without a terminal, says which servers are waiting and how to approve
 * them. Resolves with the number approved.
 */
export async function askApprovals(requests: readonly ApprovalRequest[], io: CliIo, store: TrustStore): Promise<number> {
  if (requests.length === 0) return 0;
  const stdin = io.stdin;
  if (stdin === undefined || stdin.isTTY !== true || io.stderr.isTTY !== true) {
    const list = requests.map((request) => `  ${request.name} (${request.file})`).join('\n');
    io.stderr.write(
      `mcpgen: ${requests.length === 1 ? 'this project server is' : 'these project servers are'} not approved, so ${requests.length === 1 ? 'it is' : 'they are'} not used:\n${list}\n`
      + `mcpgen: run mcpgen on a terminal to review and approve ${requests.length === 1 ? 'it' : 'them'}, or pass --approve (or set ${APPROVE_ENV}=1) to use the project's servers for this run\n`,
    );
    return 0;
  }
  const reader = createInterface({ input: stdin, terminal: false });
  const lines = reader[Symbol.asyncIterator]();
  let approved = 0;
  try {
    for (const request of requests) {
      const action = request.entry !== null && typeof request.entry === 'object' && 'command' in request.entry ? 'run this command' : 'connect to this server';
      io.stderr.write(`mcpgen: ${request.file} wants to ${action}:\n${describeApproval(request)}\nUse it? [y/N] `);
      const next = await lines.next();
      const answer = next.done === true ? '' : String(next.value).trim().toLowerCase();
      if (next.done === true) io.stderr.write('\n');
      if (answer === 'y' || answer === 'yes') {
        store.approve(request);
        approved += 1;
      }
    }
  } finally {
    reader.close();
  }
  return approved;
}
