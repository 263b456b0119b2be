/**
 * What the Streamable HTTP client transport knows of its session: the session id the server
 * assigned, the protocol version it sends, and whether the engine speaks a stateless revision,
 * with the protocol headers these make for each request, and the DELETE that ends the session.
 */
import type { TransportSendOptions } from '../../core/transport.js';
import { ownCopy } from '../../era/own-copy.js';
import { HttpTransportError } from './client-errors.js';
import { discardBody, RequestAbort, type HttpRequester } from './client-request.js';
import type { ClientResponse } from './client-response.js';
import { eraOf, type StatelessFacts } from './client-stateless.js';

/** The header carrying the session id (header names are case-insensitive). */
export const SESSION_ID_HEADER = 'mcp-session-id';
/** The header carrying the negotiated protocol version. */
export const PROTOCOL_VERSION_HEADER = 'mcp-protocol-version';

/** The session facts of one transport. */
export class ClientSessionState {
  /** The session id the server assigned, once it did (or the one configured to start with). */
  sessionId: string | undefined;
  /** The `MCP-Protocol-Version` value, once known. */
  protocolVersion: string | undefined;
  /**
   * Set while the engine speaks a stateless revision (2026-07-28 on), as the revision facts
   * sent with each message say.
   */
  stateless: StatelessFacts | undefined;
  /** The version configured, sent again when the engine leaves the stateless era. */
  private readonly configuredVersion: string | undefined;

  constructor(sessionId: string | undefined, protocolVersion: string | undefined) {
    this.sessionId = sessionId;
    this.protocolVersion = protocolVersion;
    this.configuredVersion = protocolVersion;
  }

  /** Enters or leaves the stateless era as the engine's revision facts for the next message say. */
  followEra(options: TransportSendOptions | undefined): void {
    const era = eraOf(options, this.stateless);
    if (era === this.stateless) return;
    if (era !== undefined && this.stateless === undefined) this.sessionId = undefined;
    this.stateless = era;
    this.protocolVersion = era?.revision ?? this.configuredVersion;
  }

  /** Takes the session id an `initialize` response assigned, if any. */
  capture(response: ClientResponse): void {
    const sessionId = response.headers.get(SESSION_ID_HEADER);
    if (sessionId !== null && sessionId !== '') {
      this.sessionId = sessionId;
    }
  }

  /** `base` with the session and version headers; an `initialize` request carries neither. */
  headers(base: Record<string, string>, initialize = false): Record<string, string> {
    // Copied by assignment, not spread: members added to a spread copy take V8's slow path.
    const headers = ownCopy(base) as Record<string, string>;
    if (this.sessionId !== undefined && !initialize && this.stateless === undefined) headers[SESSION_ID_HEADER] = this.sessionId;
    if (this.protocolVersion !== undefined && !initialize) headers[PROTOCOL_VERSION_HEADER] = this.protocolVersion;
    return headers;
  }

  /**
   * Ends the session on the server with DELETE (HTTP 405, "not supported", and 404 are
   * accepted) and forgets its id. Rejects with an HttpTransportError when the server refuses
   * otherwise.
   */
  async terminate(requester: HttpRequester, url: URL, timeoutMs: number): Promise<void> {
    const sessionId = this.sessionId;
    if (sessionId === undefined) return;
    const response = await requester.send({ method: 'DELETE', url, headers: this.headers({}), abort: new RequestAbort(), timeoutMs });
    if (!response.ok && response.status !== 405 && response.status !== 404) {
      throw await HttpTransportError.fromResponse('DELETE', url, response, 'Terminating the session', requester.limits.errorBodyBytes);
    }
    await discardBody(response);
    if (this.sessionId === sessionId) this.sessionId = undefined;
  }
}
