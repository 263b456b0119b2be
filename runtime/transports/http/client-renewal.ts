/**
 * Transparent renewal of an expired Streamable HTTP session: the client transport remembers
 * the `initialize` request and `notifications/initialized` it carried, and when a request
 * meets HTTP 404 for its session id, replays that handshake (hidden from the engine) to get
 * a new session, once however many messages ran into the same expiry.
 */
import { messageOf } from '../../core/errors.js';
import { JSONRPC_VERSION, type JSONRPCMessage, type JSONRPCRequest, type RequestId } from '../../core/jsonrpc.js';
import { INITIALIZE_REQUEST } from '../../core/special-methods.js';
import { HttpTransportError } from './client-errors.js';
import { isInitializeRequest, protocolVersionOf } from './client-messages.js';
import { Method } from '../../../generated/methods.js';

/** What the renewal needs from its transport. */
export interface RenewalHost {
  readonly url: URL;
  /** The session in use: its id (undefined while there is none) and `MCP-Protocol-Version`. */
  readonly session: { sessionId: string | undefined; protocolVersion: string | undefined };
  /** POSTs a message of the renewal handshake (it must not wait for the renewal itself). */
  postHandshake(message: JSONRPCMessage): Promise<void>;
  /** Resolves with the response to `id`, which the engine never sees. */
  hideResponse(id: RequestId): Promise<unknown>;
  /** Forgets a hidden response that can no longer arrive. */
  forgetResponse(id: RequestId): void;
  /** Drops the standalone stream of the expired session. */
  dropStandaloneStream(): void;
  /** Reopens the standalone stream and reports the new session. */
  renewed(expired: string): void;
}

/** The handshake a transport carried, and the renewal of its session. */
export class SessionRenewer {
  /** The last `initialize` request carried, replayed to renew an expired session. */
  private initializeRequest: JSONRPCRequest | undefined;
  private pendingInitializeId: RequestId | undefined;
  private initializedNotification: JSONRPCMessage | undefined;
  private renewal: { readonly expired: string; readonly done: Promise<void> } | undefined;
  private renewals = 0;

  constructor(private readonly host: RenewalHost) {}

  /** Whether a renewal is in progress. */
  get renewing(): boolean {
    return this.renewal !== undefined;
  }

  /** Settles once a renewal in progress is over (at once without one). */
  settled(): Promise<void> {
    return this.renewal?.done.catch(() => undefined) ?? Promise.resolve();
  }

  /** Remembers the handshake messages among outgoing `item`s. */
  observe(item: JSONRPCMessage): void {
    if (!('method' in item)) return;
    if (item.method === INITIALIZE_REQUEST && 'id' in item) {
      this.initializeRequest = item;
      this.pendingInitializeId = item.id;
    } else if (item.method === Method.NotificationsInitialized) {
      this.initializedNotification = item;
    }
  }

  /** The negotiated version when `item` answers the pending `initialize`, else undefined. */
  negotiatedBy(id: RequestId, item: unknown): string | undefined {
    if (id !== this.pendingInitializeId) return undefined;
    this.pendingInitializeId = undefined;
    return protocolVersionOf(item);
  }

  /** Whether a 404 for `message` can be healed by a new session. */
  canRenew(message: JSONRPCMessage | JSONRPCMessage[]): boolean {
    return this.initializeRequest !== undefined && !isInitializeRequest(message);
  }

  /** Renews the expired session once, however many messages ran into its 404. */
  async renew(expired: string): Promise<void> {
    if (this.renewal?.expired !== expired) {
      if (this.host.session.sessionId !== expired) return;
      this.renewal = { expired, done: this.reinitialize(expired) };
    }
    await this.renewal.done;
  }

  private async reinitialize(expired: string): Promise<void> {
    const host = this.host;
    host.session.sessionId = undefined;
    host.dropStandaloneStream();
    const request: JSONRPCRequest = { ...this.initializeRequest!, id: `mcpgen-reinitialize-${++this.renewals}` };
    const answered = host.hideResponse(request.id);
    try {
      await host.postHandshake(request);
    } catch (error) {
      host.forgetResponse(request.id);
      throw new HttpTransportError(`Session ${expired} expired and starting a new one failed: ${messageOf(error)}`, {
        method: 'POST', url: host.url.href, status: 404, cause: error,
      });
    }
    const response = await answered;
    const version = protocolVersionOf(response);
    if (version === undefined || (host.session.protocolVersion !== undefined && version !== host.session.protocolVersion)) {
      const detail = version === undefined ? `the server answered ${JSON.stringify(response)}` : `the server now negotiates ${version} instead of ${host.session.protocolVersion}`;
      throw new HttpTransportError(`Session ${expired} expired and could not be renewed: ${detail}`, {
        method: 'POST', url: host.url.href, status: 404,
      });
    }
    host.session.protocolVersion = version;
    await host.postHandshake(this.initializedNotification ?? { jsonrpc: JSONRPC_VERSION, method: Method.NotificationsInitialized });
    host.renewed(expired);
  }
}
