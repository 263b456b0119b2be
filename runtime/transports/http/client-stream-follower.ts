/**
 * Follows one logical event stream of the Streamable HTTP client across connections: reads
 * it, and when it ends while still needed, resumes it with GET and `Last-Event-ID` after the
 * server's `retry` delay, backing off exponentially while attempts fail. The transport owns
 * the state the stream feeds (which requests are answered, where messages go).
 */
import { asError } from '../../core/errors.js';
import type { RequestId } from '../../core/jsonrpc.js';
import { decodeMessage } from '../../core/wire-format.js';
import { HttpTransportError } from './client-errors.js';
import { readEventStream } from './client-event-stream.js';
import type { ClientResponse } from './client-response.js';
import { reconnectDelay, type ReconnectPolicy } from './client-reconnect.js';
import { delay, discardBody, mediaTypeOf, type RequestAbort } from './client-request.js';

/** The state of one logical event stream, kept across its reconnections. */
export interface StreamTask {
  /** `post`: the answer stream of a POST; `standalone`: the GET stream for server-initiated messages. */
  readonly kind: 'post' | 'standalone';
  /** Requests whose answers the stream owes (post streams only). */
  readonly ids: readonly RequestId[];
  /** Aborts every connection of the stream; released when the stream is done. */
  readonly abort: RequestAbort;
  /** The stream's cursor: the last event id seen ('' before any). */
  lastEventId: string;
  /** The server's last `retry` value on this stream, in milliseconds. */
  retryMs: number | undefined;
  /** False where the protocol has no resumption (the stateless era): a lost answer stream fails its requests at once. */
  readonly resumable?: boolean | undefined;
}

/** What a followed stream needs from its transport. */
export interface StreamHost {
  /** The MCP endpoint, for error messages. */
  readonly url: URL;
  readonly policy: ReconnectPolicy;
  /** The bound on one event of the stream (see `maxEventBytes`). */
  readonly maxEventBytes: number;
  /** The bound on an error body read. */
  readonly errorBodyBytes: number;
  /** Holds reading while too many answers are on their way (see EventStreamOptions.ready). */
  readonly ready?: (() => Promise<void> | undefined) | undefined;
  /** Sends a GET with these headers plus the transport's protocol headers. */
  get(headers: Record<string, string>, abort: RequestAbort): Promise<ClientResponse>;
  /** Receives each decoded message (or ParseFailure) of the stream. */
  deliver(value: unknown): void;
  /** Whether the transport still waits for an answer to `id`. */
  awaits(id: RequestId): boolean;
  /** Answers the still-awaited `ids` with an error, because the stream that owed them is gone. */
  fail(ids: readonly RequestId[], reason: string): void;
  /** Told when the standalone stream cannot be (re)opened; `error` says why. */
  standaloneFailed(error: Error | undefined): void;
  /** Receives problems nobody waits for. */
  report(error: Error): void;
}

/** The outcome of one attempt to open a GET stream. */
type GetAttempt =
  | { readonly response: ClientResponse }
  | { readonly error: HttpTransportError; readonly retryable: boolean };

/**
 * Reads `task`'s stream, starting with `initial` (a POST's answer) or, without one, with an
 * immediate GET (the standalone stream). Resolves when the stream is no longer needed or was
 * given up; never rejects.
 */
export async function followStream(host: StreamHost, task: StreamTask, initial: ClientResponse | undefined): Promise<void> {
  let response = initial;
  let failures = 0;
  let lastError: Error | undefined;
  /** When the current run of failures began, and how many reconnections it made. */
  let failingSince = 0;
  let attempts = 0;
  let immediate = initial === undefined;
  const { policy } = host;
  try {
    for (;;) {
      if (response !== undefined) {
        const { progressed, tooLarge } = await consume(host, task, response);
        response = undefined;
        if (tooLarge !== undefined) {
          // Resuming would only bring the same event again.
          giveUp(host, task, new HttpTransportError(`The event stream from ${host.url.href} was cut: ${tooLarge.message}`, {
            method: task.kind === 'post' ? 'POST' : 'GET', url: host.url.href, cause: tooLarge,
          }));
          return;
        }
        // A stream that closes without carrying anything counts as a failed attempt, so a
        // server that keeps doing so is eventually given up instead of polled forever.
        if (progressed) {
          failures = 0;
          attempts = 0;
          lastError = undefined;
        } else {
          if (failures === 0) failingSince = Date.now();
          failures++;
          lastError = undefined;
        }
        if (!stillNeeded(host, task)) return;
        if (task.kind === 'post' && task.resumable === false) {
          host.fail(task.ids, 'its event stream ended before the response (streams are not resumable in this protocol revision)');
          return;
        }
        if (task.kind === 'post' && task.lastEventId === '') {
          host.fail(task.ids, 'its event stream ended before the response and cannot be resumed (the server sent no event id)');
          return;
        }
      }
      if (failures > policy.maxRetries || (!immediate && policy.maxRetries === 0)) {
        giveUp(host, task, lastError, exhausted(policy, attempts, failingSince, lastError));
        return;
      }
      if (!immediate) {
        await delay(reconnectDelay(policy, failures, task.retryMs), task.abort.signal);
      }
      immediate = false;
      if (!stillNeeded(host, task)) return;
      const attempt = await openGet(host, task);
      attempts++;
      if ('response' in attempt) {
        response = attempt.response;
        continue;
      }
      lastError = attempt.error;
      if (failures === 0) failingSince = Date.now();
      failures++;
      if (!attempt.retryable) {
        giveUp(host, task, attempt.error);
        return;
      }
    }
  } catch (error) {
    // Only the abort of `delay` lands here: the transport closed or the stream was replaced.
    if (!task.abort.aborted) host.report(asError(error));
  } finally {
    task.abort.release();
  }
}

/** What one connection of a stream did. */
interface Consumed {
  /** Whether it carried any event or id. */
  readonly progressed: boolean;
  /** Set when it was cut because an event passed `maxEventBytes`. */
  readonly tooLarge?: Error | undefined;
}

/** Reads one connection of a stream. */
async function consume(host: StreamHost, task: StreamTask, response: ClientResponse): Promise<Consumed> {
  let progressed = false;
  const end = await readEventStream(response, {
    onevent: (event) => {
      progressed = true;
      task.lastEventId = event.lastEventId;
      // Other event types belong to other protocols; empty data primes resumption only.
      if (event.type !== 'message' || event.data.trim() === '') return;
      host.deliver(decodeMessage(event.data));
    },
    onretry: (milliseconds) => {
      task.retryMs = milliseconds;
    },
  }, { lastEventId: task.lastEventId, maxEventBytes: host.maxEventBytes, ready: host.ready });
  if (end.tooLarge === true) return { progressed, tooLarge: end.error };
  if (end.lastEventId !== task.lastEventId) {
    progressed = true;
    task.lastEventId = end.lastEventId;
  }
  if (end.error !== undefined && !task.abort.aborted) {
    host.report(new HttpTransportError(`The event stream from ${host.url.href} failed: ${end.error.message}`, {
      method: task.kind === 'post' ? 'POST' : 'GET', url: host.url.href, cause: end.error,
    }));
  }
  return { progressed };
}

async function openGet(host: StreamHost, task: StreamTask): Promise<GetAttempt> {
  const headers: Record<string, string> = { accept: 'text/event-stream' };
  if (task.lastEventId !== '') headers['last-event-id'] = task.lastEventId;
  let response: ClientResponse;
  try {
    response = await host.get(headers, task.abort);
  } catch (error) {
    return { error: error as HttpTransportError, retryable: true };
  }
  if (response.ok && mediaTypeOf(response) === 'text/event-stream') {
    return { response };
  }
  const what = task.kind === 'standalone' ? 'Opening the standalone event stream' : 'Resuming an event stream';
  if (response.ok) {
    await discardBody(response);
    const error = new HttpTransportError(`${what} got content type ${JSON.stringify(mediaTypeOf(response))} instead of an event stream`, {
      method: 'GET', url: host.url.href, status: response.status,
    });
    return { error, retryable: false };
  }
  const error = await HttpTransportError.fromResponse('GET', host.url, response, what, host.errorBodyBytes);
  // Conflicts (an old connection not yet noticed gone), rate limits and server errors pass.
  const retryable = response.status === 409 || response.status === 429 || response.status >= 500;
  return { error, retryable };
}

function stillNeeded(host: StreamHost, task: StreamTask): boolean {
  if (task.abort.aborted) return false;
  return task.kind === 'standalone' || task.ids.some((id) => host.awaits(id));
}

/** What a stream given up after its reconnections failed went through, for the message. */
function exhausted(policy: ReconnectPolicy, attempts: number, since: number, lastError: Error | undefined): string {
  if (policy.maxRetries === 0) return 'it ended, and reconnecting is disabled (reconnect.maxRetries is 0)';
  const tries = attempts === 1 ? '1 reconnection' : `${attempts} reconnections`;
  const last = lastError === undefined ? 'the last one ended without an event' : `the last one failed: ${lastError.message}`;
  return `retries exhausted (${tries} over ${Date.now() - since} ms, reconnect.maxRetries is ${policy.maxRetries}); ${last}`;
}

function giveUp(host: StreamHost, task: StreamTask, error: Error | undefined, why?: string): void {
  if (task.kind === 'post') {
    host.fail(task.ids, `its event stream was lost: ${why ?? error?.message ?? 'it ended'}`);
  } else {
    host.standaloneFailed(error);
  }
}
