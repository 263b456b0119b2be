/**
 * URL-mode elicitation required (-32042, MCP 2025-11-25): a server refuses a request until the
 * user has completed one or more flows in a browser (an OAuth consent, a payment). The host
 * shows the URLs, and once the user says they are done, the request is sent again.
 */
import { ErrorCodes } from '../../../generated/protocol/error-codes.js';
import type * as Stateful from '../../../generated/protocol/stateful.js';
import type * as Stateless from '../../../generated/protocol/stateless.js';
import type { Method } from '../../../generated/methods.js';
import { ProtocolError, SdkError } from '../../core/errors.js';

/** Retries after the user completed the URLs, before the refusal is passed on. */
export const MAX_URL_ELICITATION_RETRIES = 3;

/** One URL the server asks the user to visit (2026-07-28's names no `elicitationId`). */
export type UrlElicitation = Stateful.ElicitRequestURLParams | Extract<Stateless.InputRequestMap[typeof Method.ElicitationCreate]['params'], { mode: 'url' }>;

/** What the host's callback is shown. */
export interface UrlElicitationPrompt {
  readonly server: string;
  /** The request that was refused, e.g. `tools/call`. */
  readonly method: string;
  /** The tool or prompt name, or resource URI, the request was about. */
  readonly target?: string | undefined;
  readonly elicitations: readonly UrlElicitation[];
  /** 1 for the first refusal, up to {@link MAX_URL_ELICITATION_RETRIES}. */
  readonly attempt: number;
  /** Aborted when the caller gave up on the request. */
  readonly signal?: AbortSignal | undefined;
}

/**
 * Shows the URLs to the user and resolves true once the user completed them (the request is
 * then retried), or false when the user declined (the request fails as cancelled).
 */
export type UrlElicitationHandler = (prompt: UrlElicitationPrompt) => boolean | Promise<boolean>;

/** The URL elicitations of a -32042 refusal, or undefined for any other error. */
export function urlElicitationsOf(error: unknown): UrlElicitation[] | undefined {
  if (!(error instanceof ProtocolError) || error.code !== ErrorCodes.URL_ELICITATION_REQUIRED) return undefined;
  const data = error.data as { elicitations?: unknown } | undefined;
  const list = Array.isArray(data?.elicitations) ? data.elicitations : [];
  return list.filter((item): item is UrlElicitation => typeof item === 'object' && item !== null && typeof (item as { url?: unknown }).url === 'string');
}

/**
 * Runs `send`; when the server answers -32042, asks `handler` and sends again, at most
 * {@link MAX_URL_ELICITATION_RETRIES} times. A declined prompt rejects with
 * SdkError('REQUEST_CANCELLED') (the refusal is its cause and `data.elicitations` lists the
 * URLs); a refusal after the last retry, or any refusal without a handler, rejects as it came.
 *
 * @example
 * ```ts
 * import { Client } from 'mcpgen';
 * import { withUrlElicitation } from 'mcpgen/host';
 *
 * declare const client: Client;
 * const result = await withUrlElicitation(
 *   () => client.callTool({ name: 'checkout', arguments: {} }),
 *   { server: 'shop', method: 'tools/call', target: 'checkout' },
 *   ({ elicitations }) => {
 *     for (const item of elicitations) console.log(`${item.message}: ${item.url}`);
 *     return true; // the user says they are done
 *   },
 * );
 * ```
 */
export async function withUrlElicitation<R>(
  send: () => Promise<R>,
  context: Omit<UrlElicitationPrompt, 'elicitations' | 'attempt'>,
  handler: UrlElicitationHandler | undefined,
): Promise<R> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (error) {
      const elicitations = urlElicitationsOf(error);
      if (elicitations === undefined || handler === undefined || attempt > MAX_URL_ELICITATION_RETRIES) throw error;
      const completed = await handler({ ...context, elicitations, attempt });
      if (!completed) {
        const what = context.target === undefined ? context.method : `${context.method} ${context.target}`;
        throw new SdkError('REQUEST_CANCELLED', `${what} on ${context.server} needs the user to complete ${elicitations.map((item) => item.url).join(', ')}, which they declined`, {
          cause: error,
          data: { elicitations },
        });
      }
    }
  }
}
