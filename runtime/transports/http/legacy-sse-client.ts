/**
 * The client side of the HTTP+SSE transport of MCP 2024-11-05, for servers that predate
 * Streamable HTTP. The transport only moves messages, so it works with whatever revision the
 * Client negotiates over it. Runtime-neutral: fetch, streams, AbortController and timers.
 */
import { SdkError, asError, messageOf } from '../../core/errors.js';
import type { JSONRPCMessage } from '../../core/jsonrpc.js';
import type { MessageExtra, Transport, TransportSendOptions } from '../../core/transport.js';
import { decodeMessage, encodeMessage } from '../../core/wire-format.js';
import { withAuthProvider, type AuthProviderOption } from './auth-hooks.js';
import { HttpTransportError } from './client-errors.js';
import { readEventStream, type EventStreamEnd } from './client-event-stream.js';
import { AnswerPoster, isAnswer, type AnswerOptions } from './client-answers.js';
import type { ClientResponse } from './client-response.js';
import { discardBody, RequestAbort, HttpRequester, mediaTypeOf, type HttpClientOptions } from './client-request.js';

/** Default wait for the server's `endpoint` event: 10 s. */
export const DEFAULT_ENDPOINT_TIMEOUT_MS = 10_000;

/** Options of a {@link LegacySseClientTransport}. */
export interface LegacySseClientTransportOptions extends HttpClientOptions, AuthProviderOption, AnswerOptions {
  /** How long `start()` waits for the `endpoint` event; default {@link DEFAULT_ENDPOINT_TIMEOUT_MS}. */
  readonly endpointTimeoutMs?: number | undefined;
}

/**
 * An HTTP+SSE client transport: `start()` opens the event stream with GET and waits for the
 * server's `endpoint` event, whose URI (resolved against the stream's URL, and refused when it
 * points to another origin, so a server cannot redirect messages elsewhere) receives every
 * outgoing message as a POST. Server messages arrive as `message` events on the stream.
 *
 * The stream is the session: when it ends, the transport closes, with a `closeReason`. It is not
 * reconnected, because a new stream would be a new session that the Client never initialized.
 * A POST that fails (error status or network failure) rejects `send()` with an
 * {@link HttpTransportError}.
 */
export class LegacySseClientTransport implements Transport {
  /** HTTP: `tcp` in telemetry's terms. */
  readonly networkTransport = 'tcp';
  onmessage?: (message: unknown, extra?: MessageExtra) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;

  /** The URL of the event stream. */
  readonly url: URL;
  private readonly options: LegacySseClientTransportOptions;
  private readonly requester: HttpRequester;
  /** Aborted when the transport closes; the stream and every POST hang off it. */
  private readonly master = new AbortController();
  /** Retries answers to the server's requests and holds the stream while too many are on their way. */
  private readonly answers: AnswerPoster;
  private endpointValue: URL | undefined;
  private started = false;
  private closed = false;
  private reason: Error | undefined;

  constructor(url: string | URL, options: LegacySseClientTransportOptions = {}) {
    this.url = new URL(url);
    this.options = options;
    this.requester = new HttpRequester(withAuthProvider(options, this.url));
    this.answers = new AnswerPoster(options, this.master.signal);
  }

  /** Where messages are POSTed, once the server announced it. */
  get endpoint(): URL | undefined {
    return this.endpointValue;
  }

  /** Set when the server ended the event stream. */
  get closeReason(): Error | undefined {
    return this.reason;
  }

  /**
   * Opens the event stream and resolves once the `endpoint` event arrived. Rejects with an
   * HttpTransportError when the GET fails (its `status` tells why), or when no acceptable
   * endpoint arrives in time.
   */
  async start(): Promise<void> {
    if (this.started) {
      throw new SdkError('ALREADY_CONNECTED', 'LegacySseClientTransport already started');
    }
    if (this.closed) {
      throw new SdkError('NOT_CONNECTED', 'LegacySseClientTransport is closed');
    }
    this.started = true;
    const stream = new RequestAbort(this.master.signal);
    try {
      const response = await this.requester.send({
        method: 'GET',
        url: this.url,
        headers: { accept: 'text/event-stream' },
        abort: stream,
      });
      if (!response.ok) {
        throw await HttpTransportError.fromResponse('GET', this.url, response, 'Opening the SSE stream', this.requester.limits.errorBodyBytes);
      }
      if (mediaTypeOf(response) !== 'text/event-stream') {
        await discardBody(response);
        throw this.failure(`Opening the SSE stream got content type ${JSON.stringify(mediaTypeOf(response))} instead of an event stream`, response.status);
      }
      await this.awaitEndpoint(response, stream);
    } catch (error) {
      stream.abort(error);
      stream.release();
      throw error;
    }
  }

  /**
   * POSTs one message (or batch) to the announced endpoint. An answer to the server's
   * requests whose POST meets a passing failure is retried (see `answerRetry`).
   */
  async send(message: JSONRPCMessage | JSONRPCMessage[], _options?: TransportSendOptions): Promise<void> {
    const endpoint = this.endpointValue;
    if (endpoint === undefined || this.closed) {
      throw new SdkError('NOT_CONNECTED', 'LegacySseClientTransport is not connected');
    }
    if (isAnswer(message)) {
      await this.answers.send(message, () => this.post(endpoint, message));
      return;
    }
    await this.post(endpoint, message);
  }

  private async post(endpoint: URL, message: JSONRPCMessage | JSONRPCMessage[]): Promise<void> {
    const request = new RequestAbort(this.master.signal);
    try {
      const response = await this.requester.send({
        method: 'POST',
        url: endpoint,
        headers: { 'content-type': 'application/json' },
        body: encodeMessage(message),
        abort: request,
      });
      if (!response.ok) {
        throw await HttpTransportError.fromResponse('POST', endpoint, response, undefined, this.requester.limits.errorBodyBytes);
      }
      await discardBody(response);
    } finally {
      request.release();
    }
  }

  /** Ends the event stream and every POST in flight; fires `onclose` once. */
  async close(): Promise<void> {
    this.finish(undefined);
  }

  /** Reads the stream in the background and resolves once a usable `endpoint` event arrived. */
  private awaitEndpoint(response: ClientResponse, stream: RequestAbort): Promise<void> {
    const timeoutMs = this.options.endpointTimeoutMs ?? DEFAULT_ENDPOINT_TIMEOUT_MS;
    return new Promise<void>((resolve, reject) => {
      let waiting = true;
      const settle = (error?: Error): void => {
        if (!waiting) return;
        waiting = false;
        clearTimeout(timer);
        if (error === undefined) resolve();
        else reject(error);
      };
      const timer = setTimeout(() => settle(this.failure(`No endpoint event arrived on ${this.url.href} within ${timeoutMs} ms`)), timeoutMs);
      const onevent = (type: string, data: string): void => {
        if (type === 'endpoint') {
          if (!waiting) {
            this.report(this.failure(`Ignored a second endpoint event (${data}); messages still go to ${this.endpointValue?.href}`));
            return;
          }
          try {
            this.endpointValue = this.resolveEndpoint(data);
            settle();
          } catch (error) {
            settle(asError(error));
          }
        } else if (type === 'message' && data.trim() !== '') {
          this.deliver(decodeMessage(data));
        }
      };
      const reading = { maxEventBytes: this.requester.limits.maxEventBytes, ready: () => this.answers.ready() };
      void readEventStream(response, { onevent: (event) => onevent(event.type, event.data) }, reading).then((end) => {
        if (waiting) {
          settle(this.failure(`The SSE stream ended before an endpoint event${end.error === undefined ? '' : `: ${end.error.message}`}`));
          return;
        }
        if (!stream.aborted) this.streamEnded(end);
      });
    });
  }

  private resolveEndpoint(data: string): URL {
    let endpoint: URL;
    try {
      endpoint = new URL(data.trim(), this.url);
    } catch (error) {
      throw this.failure(`The endpoint event carried an invalid URI ${JSON.stringify(data)}: ${messageOf(error)}`);
    }
    if (endpoint.origin !== this.url.origin) {
      throw this.failure(`Refused endpoint ${endpoint.href}: its origin differs from the SSE stream's ${this.url.origin}`);
    }
    return endpoint;
  }

  private streamEnded(end: EventStreamEnd): void {
    const detail = end.error === undefined ? 'the server ended it' : end.error.message;
    this.finish(new SdkError('CONNECTION_CLOSED', `SSE stream ${this.url.href} closed: ${detail}`, { cause: end.error }));
  }

  private finish(reason: Error | undefined): void {
    if (this.closed) return;
    this.closed = true;
    this.reason = reason;
    this.master.abort(reason ?? new SdkError('CONNECTION_CLOSED', 'LegacySseClientTransport closed'));
    this.onclose?.();
  }

  private deliver(value: unknown): void {
    for (const item of Array.isArray(value) ? value : [value]) this.answers.observeInbound(item);
    try {
      this.onmessage?.(value);
    } catch (error) {
      this.report(asError(error));
    }
  }

  private failure(message: string, status?: number): HttpTransportError {
    return new HttpTransportError(message, { method: 'GET', url: this.url.href, status });
  }

  private report(error: Error): void {
    try {
      this.onerror?.(error);
    } catch {
      // A failing error hook must not break the transport.
    }
  }
}
