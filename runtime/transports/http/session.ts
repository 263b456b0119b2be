/**
 * Sessions of the HTTP server: identifiers from a cryptographic source, and the registry that
 * maps them to their Server and transport. Streamable HTTP and legacy HTTP+SSE sessions share
 * the registry (one id space, one limit, one introspection view) but never each other's ids.
 */
import { asError } from '../../core/errors.js';
import { revisionFacts, type RevisionFacts } from '../../core/revision-facts.js';
import type { RestoredSessionState, ServedSession } from '../../core/session.js';
import type { ResourceCounts } from './http-types.js';
import type { StandaloneChannel } from './server-replicas.js';
import { unrefTimer } from './sse-writer.js';

/**
 * The transport facts of a served session's negotiated revision, read from the module its
 * engine is bound to; undefined before negotiation.
 */
export function sessionFacts(session: ServedSession): RevisionFacts | undefined {
  const module = session.protocolVersion === undefined ? undefined : session.protocol.revision;
  return module === undefined ? undefined : revisionFacts(module);
}

/** Which HTTP transport a session speaks. */
export type SessionTransportKind = 'streamable-http' | 'sse';

/** A live session. */
export interface HttpSession {
  readonly id: string;
  readonly kind: SessionTransportKind;
  readonly server: ServedSession;
  /** The identity the session belongs to (see session-owner.ts); undefined without authorization. */
  readonly owner: string | undefined;
  readonly createdAt: number;
  lastActivityAt: number;
  /** The registry's use counter at the session's last request: the order eviction goes by. */
  lastUse: number;
  /** Requests received and not answered yet. */
  pendingRequests(): number;
  /** HTTP connections currently carrying the session's streams. */
  openStreams(): number;
  /** Ends the session: closes its Server and transport, answering what is pending. */
  close(): Promise<void>;
}

/** A snapshot of one session, for introspection. */
export interface SessionInfo {
  readonly id: string;
  readonly transport: SessionTransportKind;
  /** The negotiated revision, once `initialize` completed. */
  readonly protocolVersion: string | undefined;
  readonly pendingRequests: number;
  readonly openStreams: number;
  readonly createdAt: number;
  readonly lastActivityAt: number;
}

/** Read access to a handler's sessions. */
export interface SessionDirectory {
  /** Number of live sessions. */
  readonly size: number;
  /** Ids of the live sessions. */
  ids(): string[];
  /** A snapshot of one session, or undefined when there is no such live session. */
  get(id: string): SessionInfo | undefined;
  /** Ends one session as if its client had sent DELETE; resolves false when unknown. */
  close(id: string): Promise<boolean>;
}

/** What a {@link SessionStore} keeps of a stateful session so that any replica can serve it. */
export interface SharedSessionState extends RestoredSessionState {
  /** Prefix of the session's stream ids; resumption accepts only event ids of its streams. */
  readonly streamPrefix: string;
  /** The identity the session belongs to, so that every replica refuses requests of another. */
  readonly owner?: string | undefined;
}

/** What a {@link SessionStore} gets to build a session's shared standalone stream. */
export interface StandaloneChannelContext {
  /** Idle time before an SSE keep-alive comment; 0 disables. */
  readonly keepAliveMs: number;
  /** The SSE `retry` value of priming events. */
  readonly retryMs: number;
  readonly counts: ResourceCounts;
  /** The negotiated revision, once negotiated. */
  readonly revision: () => string | undefined;
  /** Whether the negotiated revision's streams start with a priming event (false before negotiation). */
  readonly primesStreams: () => boolean;
  readonly report: (error: Error) => void;
}

/**
 * Shared storage of stateful sessions (e.g. `mcpgen/redis`), for replicas behind a load
 * balancer without sticky sessions: a session created on one replica is restored on any other
 * (`Server.restoreSession`), and messages the server sends outside a request's stream go
 * through one standalone stream shared by every replica. Every method rejects when the store
 * cannot be reached; the handler then answers 503 and stays up.
 */
export interface SessionStore {
  /** Records a new session. */
  create(id: string, state: SharedSessionState): Promise<void>;
  /** The state of a live session, extending its expiry; undefined when it ended or expired. */
  load(id: string): Promise<SharedSessionState | undefined>;
  /** Records a change of the initialized flag or the logging level. */
  update(id: string, changes: Pick<SharedSessionState, 'initialized' | 'loggingLevel'>): Promise<void>;
  /** Ends a session for every replica. */
  delete(id: string): Promise<void>;
  /** The session's standalone stream as this replica sees it (one per local copy of the session). */
  standalone(id: string, context: StandaloneChannelContext): StandaloneChannel;
}

/**
 * A new session id: a random UUID (122 random bits) from the platform's cryptographic source,
 * which yields only visible ASCII as the transport spec requires.
 */
export function mintSessionId(): string {
  const source = globalThis.crypto;
  if (typeof source?.randomUUID === 'function') {
    return source.randomUUID();
  }
  return randomHex(16);
}

/** `bytes` random bytes from the platform's cryptographic source, as hex. */
export function randomHex(bytes: number): string {
  const buffer = new Uint8Array(bytes);
  globalThis.crypto.getRandomValues(buffer);
  return Array.from(buffer, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Options of a {@link SessionRegistry}. */
export interface SessionRegistryOptions {
  /** Sessions idle this long with nothing pending and no open stream end; 0 turns expiry off. */
  readonly idleTimeoutMs: number;
  /** Receives failures of sessions closed by the sweep or by eviction. */
  readonly report: (error: Error) => void;
}

/** How often the idle sweep runs at most: every minute, or at the idle timeout when shorter. */
const MAX_SWEEP_INTERVAL_MS = 60_000;

/**
 * The registry of live sessions, in least recently used order (a lookup moves a session to
 * the end). The idle sweep runs only while there are sessions, so an empty handler arms no
 * timer (Workers forbid timers outside a request).
 */
export class SessionRegistry implements SessionDirectory {
  private readonly sessions = new Map<string, HttpSession>();
  private readonly options: SessionRegistryOptions;
  /** Counts lookups; it orders sessions by use where milliseconds tie, without reordering the map per request. */
  private uses = 0;
  private sweep: ReturnType<typeof setInterval> | undefined;

  constructor(options: SessionRegistryOptions = { idleTimeoutMs: 0, report: () => undefined }) {
    this.options = options;
  }

  get size(): number {
    return this.sessions.size;
  }

  ids(): string[] {
    return [...this.sessions.keys()];
  }

  /** The live session `id` of the given kind, touching its activity time. */
  lookup(id: string, kind: SessionTransportKind): HttpSession | undefined {
    const session = this.sessions.get(id);
    if (session === undefined || session.kind !== kind) {
      return undefined;
    }
    session.lastActivityAt = Date.now();
    session.lastUse = ++this.uses;
    return session;
  }

  get(id: string): SessionInfo | undefined {
    const session = this.sessions.get(id);
    if (session === undefined) {
      return undefined;
    }
    return {
      id: session.id,
      transport: session.kind,
      protocolVersion: session.server.protocolVersion,
      pendingRequests: session.pendingRequests(),
      openStreams: session.openStreams(),
      createdAt: session.createdAt,
      lastActivityAt: session.lastActivityAt,
    };
  }

  add(session: HttpSession): void {
    session.lastUse = ++this.uses;
    this.sessions.set(session.id, session);
    this.startSweep();
  }

  /** Forgets a session (it ended); does not close it. */
  remove(id: string, session?: HttpSession): void {
    if (session === undefined || this.sessions.get(id) === session) {
      this.sessions.delete(id);
      this.stopSweepWhenEmpty();
    }
  }

  async close(id: string): Promise<boolean> {
    const session = this.sessions.get(id);
    if (session === undefined) {
      return false;
    }
    this.sessions.delete(id);
    this.stopSweepWhenEmpty();
    await session.close();
    return true;
  }

  /** Ends every session. */
  async closeAll(): Promise<void> {
    const all = [...this.sessions.values()];
    this.sessions.clear();
    this.stopSweepWhenEmpty();
    await Promise.allSettled(all.map((session) => session.close()));
  }

  /** Sessions idle for longer than `idleMs` with nothing pending and no open stream. */
  idleSince(now: number, idleMs: number): HttpSession[] {
    return [...this.sessions.values()].filter((session) => now - session.lastActivityAt >= idleMs && isIdle(session));
  }

  /**
   * Ends the least recently used session with nothing pending and no open stream, making room
   * for a new one; false when every session is busy. The evicted session's later requests get
   * 404, as for any ended session.
   */
  evictIdle(): boolean {
    // A scan, which runs only when the table is full, instead of keeping the map in use order, which every request would pay for.
    let oldest: HttpSession | undefined;
    for (const session of this.sessions.values()) {
      if ((oldest === undefined || session.lastUse < oldest.lastUse) && isIdle(session)) oldest = session;
    }
    if (oldest === undefined) return false;
    this.close(oldest.id).catch((error: unknown) => this.options.report(asError(error)));
    return true;
  }

  private startSweep(): void {
    const idleMs = this.options.idleTimeoutMs;
    if (this.sweep !== undefined || idleMs <= 0) {
      return;
    }
    this.sweep = setInterval(() => {
      for (const session of this.idleSince(Date.now(), idleMs)) {
        this.close(session.id).catch((error: unknown) => this.options.report(asError(error)));
      }
    }, Math.min(idleMs, MAX_SWEEP_INTERVAL_MS));
    unrefTimer(this.sweep);
  }

  private stopSweepWhenEmpty(): void {
    if (this.sweep !== undefined && this.sessions.size === 0) {
      clearInterval(this.sweep);
      this.sweep = undefined;
    }
  }
}

function isIdle(session: HttpSession): boolean {
  return session.pendingRequests() === 0 && session.openStreams() === 0;
}
