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

/** One POST's part of its session's share, wrapping the server-wide budget. */
export interface SessionBytesShare extends BodyBudget {
  /** Gives back what this POST took; idempotent. */
  release(): void;
  /**
   * The reply to send: the session's refusal when this POST's body was refused for its
   * session's share, `reply` otherwise (the body readers answer every refused body alike).
   */
  answer(reply: HttpReply): HttpReply;
}

/** Counts request-body bytes in flight per session against one limit. */
export class SessionBytes {
  private readonly limit: number;
  private readonly held = new Map<string, number>();

  constructor(limit: number) {
    this.limit = limit;
  }

  /** Bytes the POSTs of `session` hold now. */
  heldBy(session: string): number {
    return this.held.get(session) ?? 0;
  }

  /**
   * The share of one POST of `session` (undefined: no session, so only `budget` applies).
   * Bytes are taken from the session first, then from `budget`; when either refuses, neither
   * keeps them.
   */
  share(session: string | undefined, budget: BodyBudget): SessionBytesShare {
    if (session === undefined) {
      return { take: (bytes) => budget.take(bytes), release: () => undefined, answer: (reply) => reply };
    }
    let taken = 0;
    let refused = false;
    let released = false;
    return {
      take: (bytes) => {
        if (released) return false;
        const before = this.heldBy(session);
        if (before + bytes > this.limit) {
          refused = true;
          return false;
        }
        if (!budget.take(bytes)) return false;
        this.held.set(session, before + bytes);
        taken += bytes;
        return true;
      },
      release: () => {
        if (released) return;
        released = true;
        const left = this.heldBy(session) - taken;
        if (left <= 0) this.held.delete(session);
        else this.held.set(session, left);
      },
      answer: (reply) => (refused ? sessionBytesRefusal(this.limit) : reply),
    };
  }
}

/** The refusal of a body that would push its session's bytes in flight past the limit. */
export function sessionBytesRefusal(limit: number): HttpReply {
  return {
    ...errorReply(429, TRANSPORT_ERROR_CODES.BAD_REQUEST, `Too Many Requests: the requests of this session may hold at most ${limit} bytes in flight; retry later`, { 'retry-after': '1' }),
    closeConnection: true,
  };
}
