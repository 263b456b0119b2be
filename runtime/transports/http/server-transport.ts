/**
 * The engine-facing half of the Streamable HTTP server: one {@link Transport} per session (or
 * per request in stateless mode) that routes each outgoing message to the stream it belongs
 * to, using `relatedRequestId` and response ids.
 */
import { SdkError } from '../../core/errors.js';
import { isJsonObject, isRequestId, type JSONRPCMessage, type RequestId } from '../../core/jsonrpc.js';
import { CANCELLED_NOTIFICATION } from '../../core/special-methods.js';
import type { RevisionFacts } from '../../core/revision-facts.js';
import type { MessageExtra, Transport, TransportSendOptions } from '../../core/transport.js';
import { encodeMessage } from '../../core/wire-format.js';
import type { EventStore } from './event-store.js';
import { onClientGone, type HttpReply, type HttpRequestView } from './http-types.js';
import { isCancellation, isRequestMessage, isResponseMessage, responseIds, writerGone } from './outbound-messages.js';
import { errorReply, errorResponse, TRANSPORT_ERROR_CODES } from './replies.js';
import type { HttpMessageExtra } from './server-extra.js';
import { isResponseItem, ReplicaRelay, type StandaloneChannel } from './server-replicas.js';
import { replayOnly, SseStream, type ReplayedEvent, type StreamSettings } from './sse-stream.js';
import { IdTable } from '../../core/id-table.js';

export { httpExtra, type HttpMessageExtra } from './server-extra.js';
export type { StandaloneChannel } from './server-replicas.js';

/** What {@link StreamableServerTransport.acceptRequests} learns a client's departure from: its request view. */
export type ClientPresence = Pick<HttpRequestView, 'signal' | 'whenGone'>;

/** Construction options of a {@link StreamableServerTransport}. */
export interface StreamableServerTransportOptions {
  /** The session id; undefined in stateless mode. */
  readonly sessionId: string | undefined;
  /** Prefix of every stream id of this transport; it is how replay recognises its own streams. */
  readonly streamPrefix: string;
  readonly settings: StreamSettings;
  /**
   * The facts of the session's negotiated revision, once negotiated (see `sessionFacts`):
   * whether a new stream starts with a priming event.
   */
  readonly revision: () => RevisionFacts | undefined;
  /**
   * The prefix resumption accepts (default `streamPrefix`). A session served by several
   * replicas gives each local copy its own `streamPrefix` under the session's `resumePrefix`,
   * so stream ids never collide and any copy resumes any stream of the session.
   */
  readonly resumePrefix?: string | undefined;
  /** A standalone stream shared by the replicas of a session (see SessionStore); replaces the local one. */
  readonly standalone?: StandaloneChannel | undefined;
}

/**
 * A Streamable HTTP server transport. The HTTP side hands it POSTed messages with
 * {@link accept} / {@link acceptRequests}, opens and resumes GET streams; the engine side sends
 * through {@link send}, which routes:
 * - a response to the stream of the request it answers;
 * - a request or notification with `relatedRequestId` to that request's stream (dropped, or
 *   failed for a request, once that request is over);
 * - anything else to the standalone GET stream (a request fails fast when there is none,
 *   since it could never be answered; a notification is dropped).
 */
export class StreamableServerTransport implements Transport {
  /** HTTP: `tcp` in telemetry's terms. */
  readonly networkTransport = 'tcp';
  onmessage?: (message: unknown, extra?: MessageExtra) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  /** Internal: fires once after `onclose`, for the session registry (the engine owns `onclose`). */
  onended?: (() => void) | undefined;
  /** Internal: fires when a request stream lost its connection (stateless mode closes then). */
  onstreamdisconnect?: ((stream: SseStream) => void) | undefined;
  /** Internal: fires when a request stream finished. */
  onstreamfinish?: ((stream: SseStream) => void) | undefined;

  readonly sessionId: string | undefined;

  private readonly options: StreamableServerTransportOptions;
  /** Unanswered request id → the stream its response goes to. */
  private readonly routes = new IdTable<RequestId, SseStream>();
  /** Streams still running, by stream id, for resumption. */
  private readonly streams = new Map<string, SseStream>();
  private standalone: SseStream | undefined;
  private nextStream = 1;
  /** With a relaying standalone channel: how this copy answers through any replica. */
  private readonly relay: ReplicaRelay | undefined;
  private started = false;
  private closed = false;

  constructor(options: StreamableServerTransportOptions) {
    this.options = options;
    this.sessionId = options.sessionId;
    this.relay = ReplicaRelay.over(options.standalone, options.streamPrefix, options.resumePrefix ?? options.streamPrefix);
  }

  /** True after `close()` or once the session ended. */
  get isClosed(): boolean {
    return this.closed;
  }

  /** Requests received and not answered yet. */
  get pendingRequests(): number {
    return this.routes.size;
  }

  /** Streams still running (POST streams with unanswered requests, the standalone stream). */
  get openStreams(): number {
    return this.streams.size;
  }

  /** HTTP connections currently carrying this transport's streams. */
  get openConnections(): number {
    let count = this.options.standalone?.connected === true ? 1 : 0;
    for (const stream of this.streams.values()) {
      if (stream.connected) count++;
    }
    return count;
  }

  /** True while a GET connection carries the standalone stream. */
  get hasStandaloneConnection(): boolean {
    return this.options.standalone?.connected ?? this.standalone?.connected ?? false;
  }

  /** Whether `id` is a request of this session still being answered. */
  hasPendingRequest(id: RequestId): boolean {
    return this.routes.has(id);
  }

  async start(): Promise<void> {
    if (this.started) {
      throw new SdkError('ALREADY_CONNECTED', 'StreamableServerTransport already started');
    }
    this.started = true;
  }

  send(message: JSONRPCMessage | JSONRPCMessage[], options?: TransportSendOptions): Promise<void> {
    if (this.closed) {
      return Promise.reject(new SdkError('NOT_CONNECTED', 'The HTTP session is closed'));
    }
    if (isResponseMessage(message)) {
      return this.sendResponse(message);
    }
    if (this.relay !== undefined && !Array.isArray(message)) {
      const outgoing = this.relay.tag(message);
      if (outgoing !== message) {
        const extra = this.sessionId === undefined ? undefined : { sessionId: this.sessionId };
        return this.relay.listen((response) => {
          if (!this.closed) this.onmessage?.(response, extra);
        }).then(() => this.route(outgoing, options));
      }
    }
    return this.route(message, options);
  }

  private route(message: JSONRPCMessage | JSONRPCMessage[], options?: TransportSendOptions): Promise<void> {
    const related = options?.relatedRequestId;
    if (related !== undefined) {
      const owner = this.routes.get(related);
      if (owner !== undefined && !owner.isFinished) {
        return owner.deliver(message, false);
      }
      // The request is over (answered or cancelled): what belonged to it is stale, except the
      // cancellation of a nested request, which the client still needs to hear about.
      if (!isCancellation(message)) {
        return isRequestMessage(message)
          ? Promise.reject(new Error(`Request ${JSON.stringify(related)} is no longer open; its stream is gone`))
          : Promise.resolve();
      }
    }
    if (this.options.standalone !== undefined) {
      return this.options.standalone.send(message);
    }
    const standalone = this.standalone;
    if (standalone !== undefined && standalone.canDeliver) {
      return standalone.deliver(message, false);
    }
    if (isRequestMessage(message)) {
      return Promise.reject(new Error('No SSE stream is open to carry a server-initiated request; the client has no GET stream'));
    }
    return Promise.resolve();
  }

  private sendResponse(message: JSONRPCMessage | JSONRPCMessage[]): Promise<void> {
    const answered = responseIds(message);
    const stream = answered.length === 0 ? undefined : this.routes.get(answered[0]!);
    if (stream === undefined) {
      // Responses never go to the standalone stream; one without an open request is dropped.
      this.onerror?.(new Error(`No open stream for the response to request ${JSON.stringify(answered[0] ?? null)}; it is dropped`));
      return Promise.resolve();
    }
    // Encoded before the requests count as answered: a reply JSON cannot carry fails its send
    // with the requests still open, so the engine can answer them with an error instead.
    let data: string;
    try {
      data = encodeMessage(message);
    } catch (error) {
      return Promise.reject(error);
    }
    for (const id of answered) {
      if (this.routes.get(id) === stream) {
        this.routes.delete(id);
        stream.pending.delete(id);
      }
    }
    return stream.deliver(message, stream.pending.size === 0, data);
  }

  async close(): Promise<void> {
    if (this.closed) {
      return;
    }
    this.closed = true;
    const closing: Promise<unknown>[] = [];
    for (const stream of this.streams.values()) {
      closing.push(stream.terminate((id) => errorResponse(id, TRANSPORT_ERROR_CODES.BAD_REQUEST, 'The MCP session closed before the request completed')));
    }
    this.routes.clear();
    this.streams.clear();
    this.standalone = undefined;
    if (this.options.standalone !== undefined) closing.push(this.options.standalone.close());
    // A stateless request's transport closes with its one stream finished: nothing to wait for.
    if (closing.length > 0) await Promise.allSettled(closing);
    this.onclose?.();
    const ended = this.onended;
    this.onended = undefined;
    ended?.();
  }

  /**
   * Hands POSTed notifications and responses (no requests) to the engine. Resolves once they
   * were handed over, which for a response relayed to another replica means stored in transit;
   * rejects when that relay cannot be reached.
   */
  async accept(value: unknown, extra: HttpMessageExtra): Promise<void> {
    if (this.closed) return;
    const local = this.relay === undefined ? value : await this.relay.sortInbound(value, (error) => this.onerror?.(error));
    if (local !== undefined && !this.closed) {
      this.onmessage?.(local, extra);
      this.releaseCancelled(local);
    }
  }

  /**
   * Hands a POST body containing requests to the engine and resolves with its HTTP reply:
   * JSON when the first outbound message is the final response, otherwise an SSE stream.
   * `client` tells when the client leaves before the reply is handed over (see {@link onClientGone}).
   */
  acceptRequests(value: unknown, requestIds: readonly RequestId[], extra: HttpMessageExtra, client?: ClientPresence): Promise<HttpReply> {
    if (this.closed) {
      return Promise.resolve(errorReply(404, TRANSPORT_ERROR_CODES.SESSION_NOT_FOUND, 'Session not found'));
    }
    const stream = this.createStream('request', requestIds);
    for (const id of requestIds) {
      this.routes.set(id, stream);
    }
    // A late call is harmless: abandon() does nothing once the reply was handed over.
    if (client !== undefined) onClientGone(client, () => stream.abandon());
    // Object.assign, not a spread followed by a member, which V8 builds on a slow path (per POST here).
    const withStream: HttpMessageExtra = Object.assign({}, extra, { closeStream: () => stream.closeConnection() });
    this.onmessage?.(value, withStream);
    this.releaseCancelled(value);
    return stream.reply;
  }

  /** Opens the standalone stream on a GET without Last-Event-ID; 409 while one is connected. */
  openStandalone(): HttpReply | Promise<HttpReply> {
    if (this.closed) {
      return errorReply(404, TRANSPORT_ERROR_CODES.SESSION_NOT_FOUND, 'Session not found');
    }
    if (this.options.standalone !== undefined) {
      return this.options.standalone.connected
        ? errorReply(409, TRANSPORT_ERROR_CODES.BAD_REQUEST, 'Conflict: only one standalone SSE stream is allowed per session')
        : this.options.standalone.open(undefined);
    }
    if (this.standalone?.connected === true) {
      return errorReply(409, TRANSPORT_ERROR_CODES.BAD_REQUEST, 'Conflict: only one standalone SSE stream is allowed per session');
    }
    this.standalone ??= this.createStream('standalone', []);
    return this.standalone.connect();
  }

  /** Closes the standalone stream's connection for SEP-1699 polling; false where impossible. */
  closeStandaloneStream(): Promise<boolean> {
    return (this.options.standalone ?? this.standalone)?.closeConnection() ?? Promise.resolve(false);
  }

  /** Closes the connection of the stream answering `requestId`; false where impossible. */
  closeStream(requestId: RequestId): Promise<boolean> {
    return this.routes.get(requestId)?.closeConnection() ?? Promise.resolve(false);
  }

  /**
   * Resumes the stream that `lastEventId` belongs to. Replayed events are collected before
   * anything is written, because only the stream id returned by the store tells whether the
   * event belongs to this session; a foreign or unknown id is refused with 400.
   */
  async resume(lastEventId: string): Promise<HttpReply> {
    if (this.options.standalone?.owns(lastEventId) === true) {
      return this.closed ? errorReply(404, TRANSPORT_ERROR_CODES.SESSION_NOT_FOUND, 'Session not found') : this.options.standalone.open(lastEventId);
    }
    const store = this.options.settings.eventStore;
    if (store === undefined || this.sessionId === undefined) {
      return this.openStandalone();
    }
    const replayed: ReplayedEvent[] = [];
    const streamId = await store.replayEventsAfter(lastEventId, (id, message) => {
      replayed.push({ id, message });
    });
    if (streamId === undefined || !streamId.startsWith(`${this.options.resumePrefix ?? this.options.streamPrefix}.`)) {
      return errorReply(400, TRANSPORT_ERROR_CODES.BAD_REQUEST, 'Bad Request: unknown or expired Last-Event-ID');
    }
    if (this.closed) {
      return errorReply(404, TRANSPORT_ERROR_CODES.SESSION_NOT_FOUND, 'Session not found');
    }
    const live = this.streams.get(streamId);
    if (live !== undefined) {
      return live.resume(lastEventId, replayed);
    }
    if (replayed.length === 0 && await writerGone(store, streamId)) {
      // Nothing left to replay and nobody left to write: the client should stop waiting now.
      return errorReply(410, TRANSPORT_ERROR_CODES.BAD_REQUEST, 'The replica that ran the requests of this stream stopped before answering them; they are unknown here and will not be answered');
    }
    // The stream already delivered its last message (or is written elsewhere): replay what the
    // client missed, then end; the client comes back for more.
    return replayOnly(this.options.settings, replayed);
  }

  /**
   * Forgets the routes of requests the client cancelled in `value`: the engine never answers a
   * cancelled request, so its stream would otherwise wait for a response until the session ends.
   */
  private releaseCancelled(value: unknown): void {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (!isJsonObject(item) || item.method !== CANCELLED_NOTIFICATION || 'id' in item || !isJsonObject(item.params)) {
        continue;
      }
      const id = item.params.requestId;
      const stream = isRequestId(id) ? this.routes.get(id) : undefined;
      if (stream === undefined) {
        continue;
      }
      this.routes.delete(id as RequestId);
      stream.pending.delete(id as RequestId);
      if (stream.pending.size === 0) {
        void stream.release();
      }
    }
  }

  private createStream(kind: 'request' | 'standalone', requestIds: readonly RequestId[]): SseStream {
    const resumable = this.sessionId !== undefined;
    const stream = new SseStream({
      id: `${this.options.streamPrefix}.${this.nextStream++}`,
      kind,
      requestIds,
      priming: resumable && this.options.revision()?.primesStreams === true,
      resumable,
      settings: this.options.settings,
      hooks: {
        onfinish: (finished) => {
          this.streams.delete(finished.id);
          for (const id of finished.pending) {
            if (this.routes.get(id) === finished) this.routes.delete(id);
          }
          if (this.standalone === finished) this.standalone = undefined;
          this.onstreamfinish?.(finished);
        },
        ondisconnect: (disconnected) => this.onstreamdisconnect?.(disconnected),
      },
    });
    this.streams.set(stream.id, stream);
    return stream;
  }
}
