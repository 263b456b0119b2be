/**
 * Why a host's connection to a server failed, in words a user can act on: the OAuth failure
 * behind a refused exchange, and the stderr tail, stray stdout line or system error behind a
 * connect that did not succeed.
 */
import { SdkError } from '../../core/errors.js';
import type { Transport } from '../../core/transport.js';
import { StdioClientTransport } from '../../transports/node/stdio-client.js';
import { OAuthError } from '../auth/types.js';
import { LoginRequiredError } from './oauth.js';

/**
 * The OAuth failure behind a failed exchange, if that is what it was: a {@link LoginRequiredError}
 * (the user has to authorize) or another authorization failure (discovery, token endpoint).
 */
export function authorizationFailureOf(error: unknown): Error | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current instanceof Error; depth++) {
    if (current instanceof LoginRequiredError || current instanceof OAuthError) return current;
    if (current instanceof SdkError && current.code === 'AUTHORIZATION_FAILED') return current;
    current = current.cause;
  }
  return undefined;
}

/** Characters of a stdio server's stderr a connect failure quotes. */
const STDERR_IN_FAILURES = 500;

/**
 * A failure's message with what explains it: the stderr tail of a stdio server that exited, a
 * stdio server's first non-JSON stdout line and stderr tail when it never answered, and the
 * system error (ECONNREFUSED, ENOTFOUND…) behind a fetch that failed.
 */
export function describeFailure(error: Error, transport: Transport): string {
  const closeReason = transport.closeReason;
  if (closeReason !== undefined && error instanceof SdkError && error.code === 'CONNECTION_CLOSED') return closeReason.message;
  if (transport instanceof StdioClientTransport && closeReason !== undefined && closeReason.message !== error.message) {
    return `${error.message} (${closeReason.message})`;
  }
  const hints: string[] = [];
  if (transport instanceof StdioClientTransport) {
    const invalid = transport.invalidOutput;
    if (invalid !== undefined) hints.push(`the server wrote a line that is not JSON-RPC to stdout: ${JSON.stringify(invalid)} (a server must log to stderr, not stdout)`);
    const tail = transport.stderr.trim();
    if (tail !== '') hints.push(`stderr: ${tail.length > STDERR_IN_FAILURES ? `…${tail.slice(-STDERR_IN_FAILURES)}` : tail}`);
  }
  const system = systemErrorOf(error);
  if (system !== undefined && !error.message.includes(system)) hints.push(system);
  return hints.length === 0 ? error.message : `${error.message}; ${hints.join('; ')}`;
}

/** `connect ECONNREFUSED 127.0.0.1:3000` and the like, from the cause chain of a failed fetch. */
function systemErrorOf(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current instanceof Error; depth++) {
    const code = (current as NodeJS.ErrnoException).code;
    if (!(current instanceof SdkError) && typeof code === 'string' && /^E[A-Z0-9_]+$/.test(code)) {
      const inner = current instanceof AggregateError ? current.errors.filter((item): item is Error => item instanceof Error).map((item) => item.message) : [];
      const text = inner.length > 0 ? inner.join(', ') : current.message;
      return text.includes(code) ? text : `${code}${text === '' ? '' : `: ${text}`}`;
    }
    current = current.cause;
  }
  return undefined;
}
