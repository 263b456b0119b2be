/**
 * Admission of POSTs to the HTTP server: bounds on request-body bytes in flight and on
 * concurrent requests, handler-wide and per session (the per-session bytes: session-bytes.ts). A POST holds its share from arrival
 * until its reply is complete (a streamed reply: until the stream ends), so a burst of slow or
 * large uploads cannot pile up memory. Refusals answer at once, before the body is read, and
 * close the connection: 503 when the server as a whole is full, 429 when one session is.
 */
import { onClientGone, type BodyBudget, type HttpReply, type HttpRequestView, type StreamSink } from './http-types.js';
import { errorReply, TRANSPORT_ERROR_CODES } from './replies.js';
import { SessionBytes, type SessionBytesShare } from './session-bytes.js';

/** The bounds {@link Admission} enforces. */
export interface AdmissionLimits {
  readonly maxBytesInFlight: number;
  readonly maxBytesInFlightPerSession: number;
  readonly maxConcurrentRequests: number;
  readonly maxConcurrentRequestsPerSession: number;
}

/**
 * An admitted POST: the budget its body is read against, and how to let go of its share. One
 * small object per POST with no closures, because admission runs on every POST.
 */
export interface AdmissionTicket {
  /** What the POST's body is read against (pass it to `readBody`). */
  readonly budget: BodyBudget;
  /** Releases the share once `reply` is complete; returns the reply to send. */
  settle(reply: HttpReply): HttpReply;
  /** Releases the share at once (the request failed). */
  release(): void;
}

/** Construction options of {@link Admission}, besides its limits. */
export interface AdmissionOptions {
  /**
   * Whether a `sessionId` query parameter names the session of a POST without Mcp-Session-Id
   * (the legacy HTTP+SSE transport is served). Without it the query is never parsed here.
   */
  readonly sessionQuery: boolean;
}

/** Counts POSTs and body bytes in flight against {@link AdmissionLimits}. */
export class Admission {
  /** Internal to this module: read and updated by the tickets. */
  readonly limits: AdmissionLimits;
  bytes = 0;
  requests = 0;
  readonly perSession = new Map<string, number>();
  private readonly sessionBytes: SessionBytes;
  private readonly sessionQuery: boolean;

  constructor(limits: AdmissionLimits, options: AdmissionOptions = { sessionQuery: true }) {
    this.limits = limits;
    this.sessionBytes = new SessionBytes(limits.maxBytesInFlightPerSession);
    this.sessionQuery = options.sessionQuery;
  }

  /** Admits a POST, or returns the reply refusing it. */
  admit(request: HttpRequestView): AdmissionTicket | HttpReply {
    const session = request.header('mcp-session-id') ?? (this.sessionQuery ? request.query.get('sessionId') ?? undefined : undefined);
    if (this.requests >= this.limits.maxConcurrentRequests) {
      return busy(503, `Service Unavailable: ${this.limits.maxConcurrentRequests} requests are in progress, the limit of this server`);
    }
    const ofSession = session === undefined ? 0 : (this.perSession.get(session) ?? 0);
    if (session !== undefined && ofSession >= this.limits.maxConcurrentRequestsPerSession) {
      return busy(429, `Too Many Requests: ${this.limits.maxConcurrentRequestsPerSession} requests of this session are in progress`);
    }
    this.requests++;
    if (session !== undefined) this.perSession.set(session, ofSession + 1);
    return new AdmittedPost(this, session, session === undefined ? undefined : this.sessionBytes);
  }
}

/** One admitted POST's share of the server-wide (and its session's) counts. */
class AdmittedPost implements AdmissionTicket, BodyBudget {
  readonly budget: BodyBudget;
  private readonly admission: Admission;
  private readonly session: string | undefined;
  private readonly share: SessionBytesShare | undefined;
  private held = 0;
  private released = false;

  constructor(admission: Admission, session: string | undefined, sessionBytes: SessionBytes | undefined) {
    this.admission = admission;
    this.session = session;
    // Bytes come from the session's share first, which takes the rest from this server-wide one.
    this.share = session === undefined ? undefined : sessionBytes!.share(session, this);
    this.budget = this.share ?? this;
  }

  take(bytes: number): boolean {
    const admission = this.admission;
    if (this.released || admission.bytes + bytes > admission.limits.maxBytesInFlight) return false;
    admission.bytes += bytes;
    this.held += bytes;
    return true;
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    this.share?.release();
    const admission = this.admission;
    admission.bytes -= this.held;
    admission.requests--;
    const session = this.session;
    if (session !== undefined) {
      const left = (admission.perSession.get(session) ?? 1) - 1;
      if (left <= 0) admission.perSession.delete(session);
      else admission.perSession.set(session, left);
    }
  }

  settle(reply: HttpReply): HttpReply {
    return settleOnEnd(this.share === undefined ? reply : this.share.answer(reply), this);
  }
}

/**
 * `request` as an object literal with the ticket's budget bound to its `readBody`, for request
 * guards: a guard may spread the view it gets (to add `authInfo`, say), which keeps only own
 * members, and may read the body itself (an authorization server's token endpoint), which must
 * count against the same bounds. Getters keep what the adapter builds lazily (query, signal)
 * unbuilt until asked for. Only requests that meet a guard pay for it.
 */
export function guardedView(request: HttpRequestView, budget: BodyBudget | undefined): HttpRequestView {
  return {
    method: request.method,
    path: request.path,
    get query() {
      return request.query;
    },
    header: (name) => request.header(name),
    readBody: (maxBytes, given) => request.readBody(maxBytes, given ?? budget),
    get signal() {
      return request.signal;
    },
    whenGone: (listener) => onClientGone(request, listener),
    localAddress: request.localAddress,
    authInfo: request.authInfo,
  };
}

/** The refusal of a body that would push the bytes in flight past `maxBytesInFlight`. */
export function bytesInFlightRefusal(): HttpReply {
  return busy(503, 'Service Unavailable: too many request bytes are in flight; retry later');
}

function busy(status: number, message: string): HttpReply {
  return { ...errorReply(status, TRANSPORT_ERROR_CODES.BAD_REQUEST, message, { 'retry-after': '1' }), closeConnection: true };
}

/** Releases `post` once `reply` is complete: at once for a body, when the stream ends otherwise. */
function settleOnEnd(reply: HttpReply, post: AdmittedPost): HttpReply {
  if (reply.kind === 'body') {
    post.release();
    return reply;
  }
  return {
    ...reply,
    open(sink: StreamSink) {
      let listener: (() => void) | undefined;
      sink.onclose(() => {
        post.release();
        listener?.();
      });
      reply.open({
        write: (chunk) => sink.write(chunk),
        end: () => {
          post.release();
          sink.end();
        },
        onclose: (callback) => {
          listener = callback;
        },
      });
    },
  };
}
