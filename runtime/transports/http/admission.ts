/**
 * Admission of POSTs to the HTTP server: bounds on request-body bytes in flight and on
 * concurrent requests, handler-wide and per session (the per-session bytes: session-bytes.ts). A POST holds its share from arrival
 * until its reply is complete (a streamed reply: until the stream ends), so a burst of slow or
 * large uploads cannot pile up memory. Refusals answer at once, before the body is read, and
 * close the connection: 503 when the server as a whole is full, 429 when one session is.
 */
import { onClientGone, type BodyBudget, type HttpReply, type HttpRequestView, type StreamSink } from './http-types.js';
import { errorReply, TRANSPORT_ERROR_CODES } from './replies.js';
import { SessionBytes } from './session-bytes.js';

/** The bounds {@link Admission} enforces. */
export interface AdmissionLimits {
  readonly maxBytesInFlight: number;
  readonly maxBytesInFlightPerSession: number;
  readonly maxConcurrentRequests: number;
  readonly maxConcurrentRequestsPerSession: number;
}

/** An admitted POST: the view to serve it through, and how to let go of its share. */
export interface AdmissionTicket {
  readonly request: HttpRequestView;
  /** Releases the share once `reply` is complete; returns the reply to send. */
  settle(reply: HttpReply): HttpReply;
  /** Releases the share at once (the request failed). */
  release(): void;
}

/** Counts POSTs and body bytes in flight against {@link AdmissionLimits}. */
export class Admission {
  private readonly limits: AdmissionLimits;
  private bytes = 0;
  private requests = 0;
  private readonly perSession = new Map<string, number>();
  private readonly sessionBytes: SessionBytes;

  constructor(limits: AdmissionLimits) {
    this.limits = limits;
    this.sessionBytes = new SessionBytes(limits.maxBytesInFlightPerSession);
  }

  /** Admits a POST, or returns the reply refusing it. */
  admit(request: HttpRequestView): AdmissionTicket | HttpReply {
    const session = request.header('mcp-session-id') ?? request.query.get('sessionId') ?? undefined;
    if (this.requests >= this.limits.maxConcurrentRequests) {
      return busy(503, `Service Unavailable: ${this.limits.maxConcurrentRequests} requests are in progress, the limit of this server`);
    }
    const ofSession = session === undefined ? 0 : (this.perSession.get(session) ?? 0);
    if (session !== undefined && ofSession >= this.limits.maxConcurrentRequestsPerSession) {
      return busy(429, `Too Many Requests: ${this.limits.maxConcurrentRequestsPerSession} requests of this session are in progress`);
    }
    this.requests++;
    if (session !== undefined) this.perSession.set(session, ofSession + 1);
    let held = 0;
    let released = false;
    const budget: BodyBudget = {
      take: (bytes) => {
        if (released || this.bytes + bytes > this.limits.maxBytesInFlight) return false;
        this.bytes += bytes;
        held += bytes;
        return true;
      },
    };
    const share = session === undefined ? undefined : this.sessionBytes.share(session, budget);
    const release = (): void => {
      if (released) return;
      released = true;
      share?.release();
      this.bytes -= held;
      this.requests--;
      if (session !== undefined) {
        const left = (this.perSession.get(session) ?? 1) - 1;
        if (left <= 0) this.perSession.delete(session);
        else this.perSession.set(session, left);
      }
    };
    // Getters and forwarding keep what the adapter builds lazily (query, signal) unbuilt until
    // asked for. An object literal, not a class, because guards may spread the view they get.
    const view: HttpRequestView = {
      method: request.method,
      path: request.path,
      get query() {
        return request.query;
      },
      header: (name) => request.header(name),
      readBody: (maxBytes) => request.readBody(maxBytes, share ?? budget),
      get signal() {
        return request.signal;
      },
      whenGone: (listener) => onClientGone(request, listener),
      localAddress: request.localAddress,
      authInfo: request.authInfo,
    };
    return { request: view, release, settle: (reply) => settleOnEnd(share === undefined ? reply : share.answer(reply), release) };
  }
}

/** The refusal of a body that would push the bytes in flight past `maxBytesInFlight`. */
export function bytesInFlightRefusal(): HttpReply {
  return busy(503, 'Service Unavailable: too many request bytes are in flight; retry later');
}

function busy(status: number, message: string): HttpReply {
  return { ...errorReply(status, TRANSPORT_ERROR_CODES.BAD_REQUEST, message, { 'retry-after': '1' }), closeConnection: true };
}

/** Calls `release` once `reply` is complete: at once for a body, when the stream ends otherwise. */
function settleOnEnd(reply: HttpReply, release: () => void): HttpReply {
  if (reply.kind === 'body') {
    release();
    return reply;
  }
  return {
    ...reply,
    open(sink: StreamSink) {
      let listener: (() => void) | undefined;
      sink.onclose(() => {
        release();
        listener?.();
      });
      reply.open({
        write: (chunk) => sink.write(chunk),
        end: () => {
          release();
          sink.end();
        },
        onclose: (callback) => {
          listener = callback;
        },
      });
    },
  };
}
