/**
 * The per-session share of request-body bytes in flight. The server-wide budget alone lets one
 * session take all of it with a burst of large or slow uploads and starve every other client;
 * each session id (Streamable HTTP `Mcp-Session-Id`, legacy `sessionId`) may therefore hold at
 * most `limit` bytes of its POSTs at once. POSTs without a session id (`initialize`, stateless
 * mode) count against the server-wide budget only. A refusal is 429 with Retry-After, as for
 * the per-session bound on concurrent requests, because the client, not the server, is over its
 * share. The table holds one entry per session with bytes in flight, so it is bounded by the
 * concurrent-request bound.
 */
import type { BodyBudget, HttpReply } from './http-types.js';
import { errorReply, TRANSPORT_ERROR_CODES } from './replies.js';

/** Counts request-body bytes in flight per session against one limit. */
export class SessionBytes {
  readonly limit: number;
  private readonly held = new Map<string, number>();

  constructor(limit: number) {
    this.limit = limit;
  }

  /** Bytes the POSTs of `session` hold now. */
  heldBy(session: string): number {
    return this.held.get(session) ?? 0;
  }

  /**
   * The share of one POST of `session`: bytes are taken from the session first, then from
   * `budget` (the server-wide one); when either refuses, neither keeps them.
   */
  share(session: string, budget: BodyBudget): SessionBytesShare {
    return new SessionBytesShare(this, session, budget);
  }

  /** Moves `bytes` (negative: gives back) to or from `session`'s count. */
  add(session: string, bytes: number): void {
    const total = this.heldBy(session) + bytes;
    if (total <= 0) this.held.delete(session);
    else this.held.set(session, total);
  }
}

/** One POST's part of its session's share (a class: one small object per POST, no closures). */
export class SessionBytesShare implements BodyBudget {
  private readonly ledger: SessionBytes;
  private readonly session: string;
  private readonly budget: BodyBudget;
  private taken = 0;
  private refused = false;
  private released = false;

  constructor(ledger: SessionBytes, session: string, budget: BodyBudget) {
    this.ledger = ledger;
    this.session = session;
    this.budget = budget;
  }

  take(bytes: number): boolean {
    if (this.released) return false;
    if (this.ledger.heldBy(this.session) + bytes > this.ledger.limit) {
      this.refused = true;
      return false;
    }
    if (!this.budget.take(bytes)) return false;
    this.ledger.add(this.session, bytes);
    this.taken += bytes;
    return true;
  }

  /** Gives back what this POST took; idempotent. */
  release(): void {
    if (this.released) return;
    this.released = true;
    if (this.taken > 0) this.ledger.add(this.session, -this.taken);
  }

  /**
   * The reply to send: the session's refusal when this POST's body was refused for its
   * session's share, `reply` otherwise (the body readers answer every refused body alike).
   */
  answer(reply: HttpReply): HttpReply {
    return this.refused ? sessionBytesRefusal(this.ledger.limit) : reply;
  }
}

/** The refusal of a body that would push its session's bytes in flight past the limit. */
export function sessionBytesRefusal(limit: number): HttpReply {
  return {
    ...errorReply(429, TRANSPORT_ERROR_CODES.BAD_REQUEST, `Too Many Requests: the requests of this session may hold at most ${limit} bytes in flight; retry later`, { 'retry-after': '1' }),
    closeConnection: true,
  };
}
