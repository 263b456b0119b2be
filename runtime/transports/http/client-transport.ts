/**
 * The client side of the Streamable HTTP transport (MCP 2025-03-26 and later). Runtime-neutral:
 * it needs only fetch (or an `httpClient`), TextDecoder, AbortController and timers.
 */
import { SdkError, asError } from '../../core/errors.js';
import { JSONRPC_VERSION, type JSONRPCMessage, type RequestId } from '../../core/jsonrpc.js';
import { SERVER_ERROR_CODE } from '../../core/jsonrpc-codes.js';
import { CANCELLED_NOTIFICATION } from '../../core/special-methods.js';
import type { MessageExtra, Transport, TransportSendOptions } from '../../core/transport.js';
import { withAuthProvider } from './auth-hooks.js';
import { AnswerPoster, isAnswer } from './client-answers.js';
import { HttpTransportError } from './client-errors.js';
import { postRetryPolicy, RequestRetrier } from './client-post-retry.js';
import { cancelledIdOf, encodeOutgoing, isInitializeRequest, isNotificationOf, requestIdsOf, responseIdOf } from './client-messages.js';
import type { StreamableHttpClientTransportOptions } from './client-options.js';
import type { ClientResponse } from './client-response.js';
import { reconnectPolicy, type ReconnectPolicy } from './client-reconnect.js';
import { SessionRenewer, type RenewalHost } from './client-renewal.js';
import { discardBody, HttpRequester, mediaTypeOf, readJsonAnswer, RequestAbort } from './client-request.js';
import { ClientSessionState } from './client-session-state.js';
import { errorAnswerOf, StatelessExchanges } from './client-stateless.js';
import { followStream, type StreamHost, type StreamTask } from './client-stream-follower.js';
import { IdTable } from '../../core/id-table.js';
import { Method } from '../../../generated/methods.js';

export type { SessionRenewal, StreamableHttpClientTransportOptions } from './client-options.js';
export { PROTOCOL_VERSION_HEADER, SESSION_ID_HEADER } from './client-session-state.js';
/**
 * The JSON-RPC error code of the error responses this transport synthesises for requests whose
 * answer can no longer arrive (their event stream was lost for good). It lies in JSON-RPC's
 * implementation-defined range, as no MCP code means "the transport lost the answer".
 */
export const TRANSPORT_LOST_RESPONSE_CODE = SERVER_ERROR_CODE;

const POST_HEADERS: Readonly<Record<string, string>> = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
const DEFAULT_CLOSE_TIMEOUT_MS = 2_000;

/**
 * A Streamable HTTP client transport. Each message is POSTed to the MCP endpoint; answers come
 * back as a JSON body or an SSE stream, and server-initiated messages also on a standalone GET
 * stream opened after initialization. Dropped streams are resumed with `Last-Event-ID`.
 *
 * The session id and the negotiated protocol version are learnt by watching the `initialize`
 * exchange pass through, so the Client needs no HTTP-specific code.
 *
 * Failures surface as follows, so that no request waits forever:
 * - an HTTP exchange that fails (error status, network failure, timeout, unusable body) rejects
 *   `send()` with an {@link HttpTransportError}; the engine turns that into
 *   SdkError('SEND_FAILED') for the request, with the HttpTransportError as its `cause`;
 * - a request whose answer stream is lost for good after the POST succeeded (the stream ended
 *   without a resumable event id, or every reconnection failed) is answered with a synthesised
 *   JSON-RPC error response (code {@link TRANSPORT_LOST_RESPONSE_CODE}) delivered to `onmessage`,
 *   and the cause is reported to `onerror`;
 * - problems that concern no request (the standalone stream failing) go to `onerror` only.
 *
 * @example
 * ```ts
 * import { Client, StreamableHttpClientTransport } from 'mcpgen';
 *
 * const client = new Client({ name: 'demo', version: '1.0.0' });
 * await client.connect(new StreamableHttpClientTransport('https://example.com/mcp', { headers: { 'user-agent': 'demo/1.0' } }));
 * const { tools } = await client.listTools();
 * await client.close();
 * ```
 */
export class StreamableHttpClientTransport implements Transport {
  /** HTTP: `tcp` in telemetry's terms. */
  readonly networkTransport = 'tcp';
  onmessage?: (message: unknown, extra?: MessageExtra) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  /** This transport mirrors `x-mcp-header` tool parameters into `Mcp-Param-*` headers. */
  readonly mirrorsToolParameters = true;

  /** The MCP endpoint. */
  readonly url: URL;
  private readonly options: StreamableHttpClientTransportOptions;
  private readonly requester: HttpRequester;
  /** The side of this transport that its event streams see. */
  private readonly streamHost: StreamHost;
  /** Aborted by close(); every request and stream hangs off it. */
  private readonly master = new AbortController();
  /** Retries answers to the server's requests and holds stream reading while too many are on their way. */
  private readonly answers: AnswerPoster;
  /** Sends requests and notifications the server refused for the moment again. */
  private readonly retrier: RequestRetrier;
  private started = false;
  private closing: Promise<void> | undefined;
  /** The session id, the protocol version and the era, with the headers they make. */
  private readonly session: ClientSessionState;
  /** Requests sent and not answered yet, across all streams. */
  private readonly unanswered = new IdTable<RequestId, true>();
  /** Internal requests whose responses are kept from the engine, with their receivers. */
  private readonly hidden = new Map<RequestId, (response: unknown) => void>();
  /** The handshake carried, replayed to renew an expired session. */
  private readonly renewer: SessionRenewer;
  private standalone: StreamTask | undefined;
  /** The stateless era's exchanges in flight and parsed tool header annotations. */
  private readonly exchanges = new StatelessExchanges();

  constructor(url: string | URL, options: StreamableHttpClientTransportOptions = {}) {
    this.url = new URL(url);
    this.options = options;
    this.requester = new HttpRequester(withAuthProvider(options, this.url));
    this.answers = new AnswerPoster(options, this.master.signal);
    this.retrier = new RequestRetrier(postRetryPolicy(options.requestRetry, 'requestRetry'), this.master.signal);
    this.streamHost = this.createStreamHost(reconnectPolicy(options.reconnect));
    this.session = new ClientSessionState(options.sessionId, options.protocolVersion);
    this.renewer = new SessionRenewer(this.createRenewalHost());
  }

  /** The session id the server assigned, once it did. */
  get sessionId(): string | undefined {
    return this.session.sessionId;
  }

  /** The protocol version sent in `MCP-Protocol-Version`, once known. */
  get protocolVersion(): string | undefined {
    return this.session.protocolVersion;
  }

  /** Sets the `MCP-Protocol-Version` header value, for owners that negotiate outside this transport. */
  setProtocolVersion(version: string): void {
    this.session.protocolVersion = version;
  }

  /** Readies the transport; no request is made until the first message is sent. */
  async start(): Promise<void> {
    if (this.started) {
      throw new SdkError('ALREADY_CONNECTED', 'StreamableHttpClientTransport already started');
    }
    if (this.closing !== undefined) {
      throw new SdkError('NOT_CONNECTED', 'StreamableHttpClientTransport is closed');
    }
    this.started = true;
  }

  /**
   * POSTs one message or batch. Resolves once the server accepted it: after a JSON answer was
   * delivered, or as soon as an SSE answer stream opened (it is then read in the background).
   *
   * When `options.revision` names a stateless revision, the message travels in the Streamable
   * HTTP of the stateless era: every POST carries `MCP-Protocol-Version`, `Mcp-Method`,
   * `Mcp-Name` and the `Mcp-Param-*` headers of annotated tool parameters; there is no session,
   * no GET stream and no resumption; a JSON-RPC error in the body of an HTTP error answer is
   * delivered as the request's answer; and cancelling a request closes its exchange instead of
   * POSTing `notifications/cancelled`. A stateful revision switches back.
   *
   * An answer to the server's requests whose POST meets a passing failure (no response, 408,
   * 429, 5xx but 501) is retried with backoff (see `answerRetry`); the final failure rejects
   * with an HttpTransportError naming the request id, which the engine reports to `onerror`.
   * A request or notification the server refused for the moment (503, 429) is retried the same
   * way (see `requestRetry`) while the engine still waits for it. A message JSON cannot encode
   * rejects at once with SdkError('INVALID_ARGUMENT'), and nothing of it is sent or kept.
   */
  async send(message: JSONRPCMessage | JSONRPCMessage[], options?: TransportSendOptions): Promise<void> {
    if (!this.started || this.closing !== undefined) {
      throw new SdkError('NOT_CONNECTED', 'StreamableHttpClientTransport is not running');
    }
    this.session.followEra(options);
    const stateless = this.session.stateless;
    if (stateless !== undefined && isNotificationOf(message, CANCELLED_NOTIFICATION)) {
      // Closing the exchange is the cancellation in this era; no notification is POSTed.
      const id = cancelledIdOf(message as JSONRPCMessage);
      if (id === undefined) return;
      this.unanswered.delete(id);
      const cancelled = new SdkError('REQUEST_CANCELLED', 'Request cancelled by the client');
      this.exchanges.inflight.get(id)?.abort(cancelled);
      this.retrier.withdraw(id, cancelled);
      return;
    }
    const body = encodeOutgoing(message);
    this.observeOutgoing(message);
    const mode = (this.options.reinitializeOnExpiry ?? true) && stateless === undefined ? 'renewable' : 'once';
    if (isAnswer(message)) {
      await this.answers.send(message, () => this.post(message, body, mode));
      return;
    }
    await this.retrier.send(message, requestIdsOf(message), () => this.post(message, body, mode));
    if (isNotificationOf(message, Method.NotificationsInitialized)) this.openStandaloneStream();
  }

  /** Aborts every request and stream, ends the session with DELETE, and fires `onclose` once. */
  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  /**
   * Ends the session on the server with DELETE (HTTP 405, "not supported", is accepted) and
   * forgets its id. Rejects with an HttpTransportError when the server refuses otherwise.
   */
  terminateSession(): Promise<void> {
    return this.session.terminate(this.requester, this.url, this.options.closeTimeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS);
  }

  private async shutdown(): Promise<void> {
    this.master.abort(new SdkError('CONNECTION_CLOSED', 'StreamableHttpClientTransport closed'));
    try {
      await this.terminateSession();
    } catch (error) {
      this.report(asError(error));
    }
    this.onclose?.();
  }

  /**
   * POSTs `message`, encoded as `body`. `renewable`: on a 404 for an expired session, renew it
   * and try once more. `once`: no renewal. Both first wait for a renewal in progress, so that
   * they carry the new session id; `handshake` (the renewal's own messages) must not, or it
   * would wait for itself.
   */
  private async post(message: JSONRPCMessage | JSONRPCMessage[], body: string, mode: 'renewable' | 'once' | 'handshake'): Promise<void> {
    // Most POSTs find no renewal in progress, and skip a wait (a promise and a turn) for nothing.
    if (mode !== 'handshake' && this.renewer.renewing) await this.renewer.settled();
    const ids = requestIdsOf(message);
    const { session } = this;
    const sentSession = session.sessionId;
    const stateless = session.stateless;
    const initialize = isInitializeRequest(message);
    // Before anything is registered for the ids: a throw here leaves nothing to undo.
    const headers = session.headers(POST_HEADERS, initialize);
    if (stateless !== undefined) this.exchanges.addMetadataHeaders(headers, stateless, message);
    const abort = new RequestAbort(this.master.signal);
    for (const id of ids) this.unanswered.set(id, true);
    if (stateless !== undefined) for (const id of ids) this.exchanges.inflight.set(id, abort);
    let streaming = false;
    try {
      const response = await this.requester.send({
        method: 'POST',
        url: this.url,
        headers,
        body,
        abort,
      });
      if (initialize) session.capture(response);
      if (response.status === 404 && sentSession !== undefined && mode === 'renewable' && this.renewer.canRenew(message)) {
        await discardBody(response);
        abort.release();
        for (const id of ids) this.unanswered.delete(id);
        await this.renewer.renew(sentSession);
        return await this.post(message, body, 'once');
      }
      streaming = await this.accept(response, ids, abort);
    } catch (error) {
      for (const id of ids) {
        this.unanswered.delete(id);
        this.exchanges.inflight.delete(id);
      }
      throw error;
    } finally {
      if (!streaming) abort.release();
    }
  }

  /**
   * Handles a POST's response. Returns true when an SSE stream was opened and is now read in
   * the background (which then owns `abort`).
   */
  private async accept(response: ClientResponse, ids: readonly RequestId[], abort: RequestAbort): Promise<boolean> {
    if (!response.ok) {
      const error = await HttpTransportError.fromResponse('POST', this.url, response, undefined, this.requester.limits.errorBodyBytes);
      const answer = this.session.stateless === undefined ? undefined : errorAnswerOf(error, ids);
      if (answer === undefined) throw error;
      // The stateless era answers protocol errors (unsupported version, header mismatch,
      // unknown method) with an HTTP error status and the JSON-RPC error in the body.
      this.deliver(answer);
      return false;
    }
    if (ids.length === 0) {
      await discardBody(response);
      return false;
    }
    const type = mediaTypeOf(response);
    if (type === 'text/event-stream') {
      const task: StreamTask = { kind: 'post', ids, abort, lastEventId: '', retryMs: undefined, resumable: this.session.stateless === undefined };
      void followStream(this.streamHost, task, response);
      return true;
    }
    this.deliver(await readJsonAnswer(response, type, this.url, this.requester.limits.maxResponseBytes));
    this.failUnanswered(ids, 'the JSON answer carried no response for it');
    return false;
  }

  /** Opens the standalone GET stream unless it is open or disabled. */
  private openStandaloneStream(): void {
    if (this.options.openStandaloneStream === false || this.standalone !== undefined || this.closing !== undefined) {
      return;
    }
    const task: StreamTask = { kind: 'standalone', ids: [], abort: new RequestAbort(this.master.signal), lastEventId: '', retryMs: undefined };
    this.standalone = task;
    void followStream(this.streamHost, task, undefined).finally(() => {
      if (this.standalone === task) this.standalone = undefined;
    });
  }

  /**
   * Delivers inbound messages to the engine, except responses to this transport's own
   * (hidden) requests. Also learns the negotiated version from the `initialize` result.
   */
  private deliver(value: unknown): void {
    const items = Array.isArray(value) ? value : [value];
    const visible: unknown[] = [];
    for (const item of items) {
      this.answers.observeInbound(item);
      const id = responseIdOf(item);
      if (id !== undefined) {
        this.unanswered.delete(id);
        this.exchanges.inflight.delete(id);
        const receiver = this.hidden.get(id);
        if (receiver !== undefined) {
          this.hidden.delete(id);
          receiver(item);
          continue;
        }
        const version = this.renewer.negotiatedBy(id, item);
        if (version !== undefined) this.session.protocolVersion = version;
      }
      visible.push(item);
    }
    if (visible.length === 0) return;
    try {
      this.onmessage?.(Array.isArray(value) ? visible : visible[0]);
    } catch (error) {
      this.report(asError(error));
    }
  }

  /** Answers each still-unanswered id with a synthesised error response, so no caller hangs. */
  private failUnanswered(ids: readonly RequestId[], reason: string): void {
    for (const id of ids) {
      if (!this.unanswered.has(id)) continue;
      const message = `No response to request ${JSON.stringify(id)}: ${reason}`;
      this.report(new HttpTransportError(message, { method: 'POST', url: this.url.href }));
      this.deliver({ jsonrpc: JSONRPC_VERSION, id, error: { code: TRANSPORT_LOST_RESPONSE_CODE, message } });
    }
  }

  private observeOutgoing(message: JSONRPCMessage | JSONRPCMessage[]): void {
    for (const item of Array.isArray(message) ? message : [message]) {
      this.renewer.observe(item);
      const cancelled = 'method' in item && item.method === CANCELLED_NOTIFICATION ? cancelledIdOf(item) : undefined;
      if (cancelled !== undefined) {
        // The engine stopped waiting, so a lost stream of that request need not be resumed,
        // nor a refused POST of it sent again.
        this.unanswered.delete(cancelled);
        this.retrier.withdraw(cancelled, new SdkError('REQUEST_CANCELLED', 'Request cancelled by the client'));
      }
    }
  }

  private createRenewalHost(): RenewalHost {
    return {
      url: this.url,
      session: this.session,
      postHandshake: (message) => this.post(message, encodeOutgoing(message), 'handshake'),
      hideResponse: (id) => new Promise<unknown>((resolve) => this.hidden.set(id, resolve)),
      forgetResponse: (id) => this.hidden.delete(id),
      dropStandaloneStream: () => {
        this.standalone?.abort.abort(new Error('session expired'));
        this.standalone = undefined;
      },
      renewed: (expired) => {
        this.openStandaloneStream();
        try {
          this.options.onsessionrenewed?.({ expiredSessionId: expired, sessionId: this.session.sessionId });
        } catch (error) {
          this.report(asError(error));
        }
      },
    };
  }

  private createStreamHost(policy: ReconnectPolicy): StreamHost {
    return {
      url: this.url,
      policy,
      maxEventBytes: this.requester.limits.maxEventBytes,
      errorBodyBytes: this.requester.limits.errorBodyBytes,
      ready: () => this.answers.ready(),
      get: (headers, abort) => this.requester.send({ method: 'GET', url: this.url, headers: this.session.headers(headers), abort }),
      deliver: (value) => this.deliver(value),
      awaits: (id) => this.unanswered.has(id),
      fail: (ids, reason) => this.failUnanswered(ids, reason),
      standaloneFailed: (error) => {
        // A server without a standalone stream answers 405; that is a normal configuration. A
        // 404 means the session ended: the next POST meets it too and renews the session,
        // which reopens this stream, so it is only worth reporting when renewal is off.
        const status = error instanceof HttpTransportError ? error.status : undefined;
        if (status === 405 || (status === 404 && (this.options.reinitializeOnExpiry ?? true))) return;
        if (error !== undefined) this.report(error);
      },
      report: (error) => this.report(error),
    };
  }

  private report(error: Error): void {
    try {
      this.onerror?.(error);
    } catch {
      // A failing error hook must not break the transport.
    }
  }
}
