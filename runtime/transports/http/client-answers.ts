/**
 * How the HTTP client transports POST their answers to a server's requests: a POST that meets
 * a passing failure (no response, 408, 429, 5xx but 501) is retried with exponential backoff
 * a bounded number of times. At most `maxAnswersInFlight` answer POSTs are open at once, later
 * answers wait their turn, and while any wait the transport stops reading its event streams,
 * so that a server pushing requests faster than it takes answers is slowed down by TCP
 * instead of being met with a burst of POSTs.
 */
import { SdkError } from '../../core/errors.js';
import { isJsonObject, type JSONRPCMessage, type RequestId } from '../../core/jsonrpc.js';
import { findHttpTransportError, HttpTransportError } from './client-errors.js';
import { delay } from './client-request.js';
import { reconnectDelay, type ReconnectPolicy } from './client-reconnect.js';

/** How answer POSTs are retried. */
export interface AnswerRetryOptions {
  /** Retries after the first attempt; default 3. `0` turns retrying off. */
  readonly maxRetries?: number | undefined;
  /** Wait before the first retry; default 100 ms. It doubles with each further retry. */
  readonly initialDelayMs?: number | undefined;
  /** Longest wait between attempts; default 2000 ms. */
  readonly maxDelayMs?: number | undefined;
}

/** The options of answer POSTs every HTTP client transport accepts. */
export interface AnswerOptions {
  /** How a failed answer POST is retried (see {@link AnswerRetryOptions}). */
  readonly answerRetry?: AnswerRetryOptions | undefined;
  /**
   * Most answer POSTs open at once (a retry keeps its place while it waits); default
   * {@link DEFAULT_MAX_ANSWERS_IN_FLIGHT} (16). Later answers wait in order, and while any
   * wait the transport reads none of its event streams.
   */
  readonly maxAnswersInFlight?: number | undefined;
}

/** Default `maxAnswersInFlight`. */
export const DEFAULT_MAX_ANSWERS_IN_FLIGHT = 16;

/** The stream reconnection's schedule, doubling: one backoff for everything the client retries. */
type RetryPolicy = ReconnectPolicy;

const DEFAULT_RETRY: RetryPolicy = { maxRetries: 3, initialDelayMs: 100, maxDelayMs: 2_000, factor: 2 };

/** Statuses worth another attempt: the server may take the same answer a moment later. */
const PASSING_STATUSES = new Set([408, 429, 500, 502, 503, 504]);

/** True for a message (or batch) of responses only: answers to the server's requests. */
export function isAnswer(message: JSONRPCMessage | JSONRPCMessage[]): boolean {
  const items = Array.isArray(message) ? message : [message];
  return items.length > 0 && items.every((item) => isJsonObject(item) && !('method' in item) && ('result' in item || 'error' in item));
}

/** The ids an answer (or batch of answers) carries. */
function answerIds(message: JSONRPCMessage | JSONRPCMessage[]): RequestId[] {
  const ids: RequestId[] = [];
  for (const item of Array.isArray(message) ? message : [message]) {
    const id = (item as { id?: unknown }).id;
    if (typeof id === 'string' || typeof id === 'number') ids.push(id);
  }
  return ids;
}

/** Sends one transport's answers: retried, and counted so that stream reading can wait. */
export class AnswerPoster {
  private readonly policy: RetryPolicy;
  private readonly maxInFlight: number;
  /** Aborted when the transport closes: no retry is attempted after that. */
  private readonly signal: AbortSignal;
  private inFlight = 0;
  /** Answers waiting for a place, in order. */
  private readonly queued: (() => void)[] = [];
  /** Stream readers held until no answer waits. */
  private readers: (() => void)[] = [];

  constructor(options: AnswerOptions, signal: AbortSignal) {
    this.policy = retryPolicy(options.answerRetry);
    const most = options.maxAnswersInFlight ?? DEFAULT_MAX_ANSWERS_IN_FLIGHT;
    if (!Number.isSafeInteger(most) || most < 1) {
      throw new SdkError('INVALID_ARGUMENT', `maxAnswersInFlight must be a positive integer, got ${String(most)}`);
    }
    this.maxInFlight = most;
    this.signal = signal;
  }

  /**
   * Undefined while a new answer would be POSTed at once; otherwise a promise that resolves
   * once no answer waits for a place any more (or the transport closed).
   */
  ready(): Promise<void> | undefined {
    if ((this.inFlight < this.maxInFlight && this.queued.length === 0) || this.signal.aborted) return undefined;
    return new Promise((resolve) => this.readers.push(resolve));
  }

  /**
   * POSTs `message` with `post`, retrying passing failures with backoff. Rejects, once the
   * attempts are used up or the failure is not a passing one, with an HttpTransportError
   * that names the answered request ids and the number of attempts.
   */
  async send(message: JSONRPCMessage | JSONRPCMessage[], post: () => Promise<void>): Promise<void> {
    if (this.inFlight >= this.maxInFlight) {
      await new Promise<void>((resolve) => this.queued.push(resolve));
    } else {
      this.inFlight++;
    }
    try {
      for (let attempt = 1; ; attempt++) {
        try {
          await post();
          return;
        } catch (error) {
          if (attempt > this.policy.maxRetries || this.signal.aborted || !passing(error)) throw this.failure(message, attempt, error);
        }
        await delay(reconnectDelay(this.policy, attempt - 1, undefined), this.signal);
      }
    } finally {
      this.next();
    }
  }

  /** Gives the freed place to the next waiting answer (it keeps the count), or releases it. */
  private next(): void {
    const turn = this.queued.shift();
    if (turn !== undefined) {
      turn();
    } else {
      this.inFlight--;
    }
    if (this.queued.length === 0 && this.readers.length > 0) {
      const readers = this.readers;
      this.readers = [];
      for (const resume of readers) resume();
    }
  }

  private failure(message: JSONRPCMessage | JSONRPCMessage[], attempts: number, error: unknown): Error {
    const ids = answerIds(message).map((id) => JSON.stringify(id)).join(', ');
    const http = findHttpTransportError(error);
    if (http === undefined) return error instanceof Error ? error : new Error(String(error));
    const tries = attempts === 1 ? '1 attempt' : `${attempts} attempts`;
    return new HttpTransportError(`The answer to request ${ids} could not be sent (${tries}): ${http.message}`, {
      method: http.method,
      url: http.url,
      status: http.status,
      statusText: http.statusText,
      body: http.body,
      rpcError: http.rpcError,
      cause: error,
    });
  }
}

function passing(error: unknown): boolean {
  const http = findHttpTransportError(error);
  if (http === undefined) return false;
  return http.status === undefined || PASSING_STATUSES.has(http.status);
}

function retryPolicy(options: AnswerRetryOptions | undefined): RetryPolicy {
  const policy: RetryPolicy = {
    maxRetries: options?.maxRetries ?? DEFAULT_RETRY.maxRetries,
    initialDelayMs: options?.initialDelayMs ?? DEFAULT_RETRY.initialDelayMs,
    maxDelayMs: options?.maxDelayMs ?? DEFAULT_RETRY.maxDelayMs,
    factor: DEFAULT_RETRY.factor,
  };
  if (!Number.isSafeInteger(policy.maxRetries) || policy.maxRetries < 0 || !(policy.initialDelayMs >= 0) || !(policy.maxDelayMs >= 0)) {
    throw new SdkError('INVALID_ARGUMENT', `Invalid answerRetry options ${JSON.stringify(policy)}`);
  }
  return policy;
}
