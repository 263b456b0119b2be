/**
 * How the HTTP client transports POST their answers to a server's requests: a POST that meets
 * a passing failure (no response, 408, 429, 5xx but 501) is retried with exponential backoff,
 * at least the server's `Retry-After`, within a number of retries and a time budget
 * (client-post-retry.ts). At most `maxAnswersInFlight` answer POSTs are open at once, later
 * answers wait their turn, and while any wait the transport stops reading its event streams,
 * so that a server pushing requests faster than it takes answers is slowed down by TCP
 * instead of being met with a burst of POSTs.
 */
import { SdkError } from '../../core/errors.js';
import { isJsonObject, type JSONRPCMessage, type RequestId } from '../../core/jsonrpc.js';
import { CANCELLED_NOTIFICATION } from '../../core/special-methods.js';
import type { HttpTransportError } from './client-errors.js';
import { RequestAbort } from './client-request.js';
import { postRetryPolicy, retryPost, type PostRetryOptions, type PostRetryPolicy } from './client-post-retry.js';
import { IdTable } from '../../core/id-table.js';

/** How answer POSTs are retried (see {@link PostRetryOptions}). */
export type AnswerRetryOptions = PostRetryOptions;

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

/** Statuses worth another attempt: the server may take the same answer a moment later. */
const PASSING_STATUSES = new Set([408, 429, 500, 502, 503, 504]);

/** True for a message (or batch) of responses only: answers to the server's requests. */
export function isAnswer(message: JSONRPCMessage | JSONRPCMessage[]): boolean {
  const items = Array.isArray(message) ? message : [message];
  return items.length > 0 && items.every((item) => isJsonObject(item) && !('method' in item) && ('result' in item || 'error' in item));
}

/** Sends one transport's answers: retried, and counted so that stream reading can wait. */
export class AnswerPoster {
  private readonly policy: PostRetryPolicy;
  private readonly maxInFlight: number;
  /** Aborted when the transport closes: no retry is attempted after that. */
  private readonly signal: AbortSignal;
  private inFlight = 0;
  /** Answers waiting for a place, in order. */
  private readonly queued: (() => void)[] = [];
  /** Stream readers held until no answer waits. */
  private readers: (() => void)[] = [];
  /** The answers being sent, by the id they answer, with what stops their retries. */
  private readonly sending = new IdTable<RequestId, RequestAbort>();

  constructor(options: AnswerOptions, signal: AbortSignal) {
    this.policy = postRetryPolicy(options.answerRetry, 'answerRetry');
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
   * retries or their time budget are used up or the failure is not a passing one, with an
   * HttpTransportError that names the answered request ids, the attempts and how long they took.
   */
  async send(message: JSONRPCMessage | JSONRPCMessage[], post: () => Promise<void>): Promise<void> {
    if (this.inFlight >= this.maxInFlight) {
      await new Promise<void>((resolve) => this.queued.push(resolve));
    } else {
      this.inFlight++;
    }
    const ids = answeredIds(message);
    const withdrawn = new RequestAbort(this.signal);
    for (const id of ids) this.sending.set(id, withdrawn);
    try {
      await retryPost(this.policy, { message, attempt: post, passing, abort: withdrawn, answers: true });
    } catch (error) {
      // The server cancelled the request meanwhile: it wants no answer any more.
      if (withdrawn.aborted && !this.signal.aborted) return;
      throw error;
    } finally {
      for (const id of ids) if (this.sending.get(id) === withdrawn) this.sending.delete(id);
      withdrawn.release();
      this.next();
    }
  }

  /**
   * Watches what the server sends: its cancellation of a request whose answer is still being
   * retried ends those retries (the request's deadline passed, or it was cancelled otherwise).
   */
  observeInbound(item: unknown): void {
    if (this.sending.size === 0 || !isJsonObject(item) || item.method !== CANCELLED_NOTIFICATION || !isJsonObject(item.params)) return;
    const id = item.params.requestId;
    if (typeof id === 'string' || typeof id === 'number') this.sending.get(id)?.abort(new Error(`The server cancelled request ${JSON.stringify(id)}`));
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
}

function answeredIds(message: JSONRPCMessage | JSONRPCMessage[]): RequestId[] {
  const ids: RequestId[] = [];
  for (const item of Array.isArray(message) ? message : [message]) {
    const id = (item as { id?: unknown }).id;
    if (typeof id === 'string' || typeof id === 'number') ids.push(id);
  }
  return ids;
}

function passing(error: HttpTransportError): boolean {
  return error.status === undefined || PASSING_STATUSES.has(error.status);
}
