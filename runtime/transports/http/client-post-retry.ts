/**
 * How the HTTP client transports retry a POST the server could not take for a moment: the
 * schedule (doubling backoff, at least the server's `Retry-After`), its two bounds (a number of
 * retries and a time budget, so a short outage of the server's shared state is bridged and a long
 * one is not waited out forever), and the error that says what happened when it gives up.
 */
import { SdkError } from '../../core/errors.js';
import type { JSONRPCMessage, RequestId } from '../../core/jsonrpc.js';
import { findHttpTransportError, HttpTransportError } from './client-errors.js';
import { delay, RequestAbort } from './client-request.js';
import { reconnectDelay, type ReconnectPolicy } from './client-reconnect.js';
import { IdTable } from '../../core/id-table.js';

/** How a POST that met a passing failure is retried. */
export interface PostRetryOptions {
  /** Retries after the first attempt; default 8. `0` turns retrying off. */
  readonly maxRetries?: number | undefined;
  /** Wait before the first retry; default 100 ms. It doubles with each further retry. */
  readonly initialDelayMs?: number | undefined;
  /** Longest wait between attempts (a longer `Retry-After` is cut to it); default 2000 ms. */
  readonly maxDelayMs?: number | undefined;
  /**
   * Time budget from the first attempt: no retry starts after it; default 10,000 ms. It bounds
   * how long a message may wait for a server whose shared state is briefly unreachable.
   */
  readonly maxElapsedMs?: number | undefined;
}

/** {@link PostRetryOptions} with every default applied. */
export interface PostRetryPolicy extends ReconnectPolicy {
  readonly maxElapsedMs: number;
}

/** Default {@link PostRetryPolicy}. */
export const DEFAULT_POST_RETRY: PostRetryPolicy = { maxRetries: 8, initialDelayMs: 100, maxDelayMs: 2_000, factor: 2, maxElapsedMs: 10_000 };

/** Applies the defaults; rejects values that make the schedule meaningless. */
export function postRetryPolicy(options: PostRetryOptions | undefined, what: string): PostRetryPolicy {
  const policy: PostRetryPolicy = {
    maxRetries: options?.maxRetries ?? DEFAULT_POST_RETRY.maxRetries,
    initialDelayMs: options?.initialDelayMs ?? DEFAULT_POST_RETRY.initialDelayMs,
    maxDelayMs: options?.maxDelayMs ?? DEFAULT_POST_RETRY.maxDelayMs,
    maxElapsedMs: options?.maxElapsedMs ?? DEFAULT_POST_RETRY.maxElapsedMs,
    factor: DEFAULT_POST_RETRY.factor,
  };
  if (!Number.isSafeInteger(policy.maxRetries) || policy.maxRetries < 0 || !(policy.initialDelayMs >= 0) || !(policy.maxDelayMs >= 0) || !(policy.maxElapsedMs >= 0)) {
    throw new SdkError('INVALID_ARGUMENT', `Invalid ${what} options ${JSON.stringify(policy)}`);
  }
  return policy;
}

/** One retried POST. */
export interface RetriedPost {
  readonly message: JSONRPCMessage | JSONRPCMessage[];
  /** One attempt; rejects with (or with a cause chain holding) an HttpTransportError. */
  readonly attempt: () => Promise<void>;
  /** Whether a failure is worth another attempt. */
  readonly passing: (error: HttpTransportError) => boolean;
  /** Aborts the waits between attempts: the transport closed, or the message is no longer wanted. */
  readonly abort: RequestAbort;
  /** Whether the message answers the server's requests, which is how the give-up error names it (see describeMessage). */
  readonly answers: boolean;
}

/**
 * Runs `post.attempt` until it succeeds, fails for good, or the policy's retries or time budget
 * are used up. The final failure is an HttpTransportError saying how many attempts were made
 * over how long, and the last failure; an abort rejects with the signal's reason.
 */
export async function retryPost(policy: PostRetryPolicy, post: RetriedPost): Promise<void> {
  const started = Date.now();
  for (let attempt = 1; ; attempt++) {
    let wait: number;
    try {
      await post.attempt();
      return;
    } catch (error) {
      const http = findHttpTransportError(error);
      if (post.abort.aborted) throw post.abort.reason;
      if (http === undefined || !post.passing(http)) throw giveUp(post, attempt, started, error, http, 'the last one was refused for good');
      if (attempt > policy.maxRetries) throw giveUp(post, attempt, started, error, http, 'retries exhausted');
      wait = Math.min(Math.max(reconnectDelay(policy, attempt - 1, undefined), http.retryAfterMs ?? 0), policy.maxDelayMs);
      if (Date.now() - started + wait > policy.maxElapsedMs) throw giveUp(post, attempt, started, error, http, `retry budget of ${policy.maxElapsedMs} ms exhausted`);
    }
    await delay(wait, post.abort.signal);
  }
}

function giveUp(post: RetriedPost, attempts: number, started: number, error: unknown, http: HttpTransportError | undefined, why: string): Error {
  if (http === undefined) return error instanceof Error ? error : new Error(String(error));
  const tries = attempts === 1 ? '1 attempt' : `${attempts} attempts`;
  const detail = attempts === 1 ? '' : ` over ${Date.now() - started} ms, ${why}`;
  return new HttpTransportError(`${describeMessage(post.message, post.answers)} could not be sent (${tries}${detail}): ${http.message}`, {
    method: http.method,
    url: http.url,
    status: http.status,
    statusText: http.statusText,
    body: http.body,
    rpcError: http.rpcError,
    retryAfterMs: http.retryAfterMs,
    cause: error,
  });
}

/** `The answer to request 1, 2` / `The request 4` / `The notification notifications/initialized`. */
export function describeMessage(message: JSONRPCMessage | JSONRPCMessage[], answers: boolean): string {
  const items = Array.isArray(message) ? message : [message];
  const ids: RequestId[] = [];
  for (const item of items) {
    const id = (item as { id?: unknown }).id;
    if (typeof id === 'string' || typeof id === 'number') ids.push(id);
  }
  const list = ids.map((id) => JSON.stringify(id)).join(', ');
  if (answers) return `The answer to request ${list}`;
  if (ids.length > 0) return `Request ${list}`;
  const method = (items[0] as { method?: unknown } | undefined)?.method;
  return `The notification ${typeof method === 'string' ? method : ''}`.trimEnd();
}

/**
 * Sends requests and notifications again while the server answers 503 or 429 (it did not take
 * the message, so sending it again cannot duplicate it), until the retries run out or the
 * engine stops waiting for the request ({@link withdraw}: a cancellation, a timeout). It holds
 * one entry per request being sent, so it is bounded by the requests in flight.
 */
export class RequestRetrier {
  private readonly retrying = new IdTable<RequestId, RequestAbort>();

  constructor(
    private readonly policy: PostRetryPolicy,
    /** Aborted when the transport closes. */
    private readonly signal: AbortSignal,
  ) {}

  /** Runs `attempt` for `message` (whose request ids are `ids`) under the retry policy. */
  async send(message: JSONRPCMessage | JSONRPCMessage[], ids: readonly RequestId[], attempt: () => Promise<void>): Promise<void> {
    const withdrawn = new RequestAbort(this.signal);
    for (const id of ids) this.retrying.set(id, withdrawn);
    try {
      await retryPost(this.policy, {
        message,
        attempt,
        passing: (error) => error.status === 503 || error.status === 429,
        abort: withdrawn,
        answers: false,
      });
    } finally {
      for (const id of ids) if (this.retrying.get(id) === withdrawn) this.retrying.delete(id);
      withdrawn.release();
    }
  }

  /** Stops retrying request `id`: its send rejects with `reason` at the next wait. */
  withdraw(id: RequestId, reason: Error): void {
    this.retrying.get(id)?.abort(reason);
  }
}
