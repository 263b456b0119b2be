/**
 * Sessions of the HTTP server: identifiers from a cryptographic source, and the registry that
 * maps them to their Server and transport. Streamable HTTP and legacy HTTP+SSE sessions share
 * the registry (one id space, one limit, one introspection view) but never each other's ids.
 */
import type { Server } from '../server.js';

/** Which HTTP transport a session speaks. */
export type SessionTransportKind = 'streamable-http' | 'sse';

/** A live session. */
export interface HttpSession {
  readonly id: string;
  readonly kind: SessionTransportKind;
  readonly server: Server;
  readonly createdAt: number;
  lastActivityAt: number;
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

/** The registry of live sessions. */
export class SessionRegistry implements SessionDirectory {
  private readonly sessions = new Map<string, HttpSession>();

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
    this.sessions.set(session.id, session);
  }

  /** Forgets a session (it ended); does not close it. */
  remove(id: string, session?: HttpSession): void {
    if (session === undefined || this.sessions.get(id) === session) {
      this.sessions.delete(id);
    }
  }

  async close(id: string): Promise<boolean> {
    const session = this.sessions.get(id);
    if (session === undefined) {
      return false;
    }
    this.sessions.delete(id);
    await session.close();
    return true;
  }

  /** Ends every session. */
  async closeAll(): Promise<void> {
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.allSettled(all.map((session) => session.close()));
  }

  /** Sessions idle for longer than `idleMs` with nothing pending and no open stream. */
  idleSince(now: number, idleMs: number): HttpSession[] {
    return [...this.sessions.values()].filter(
      (session) => now - session.lastActivityAt >= idleMs && session.pendingRequests() === 0 && session.openStreams() === 0,
    );
  }
}
