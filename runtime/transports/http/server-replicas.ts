/**
 * A session served by several replicas behind a load balancer: the standalone stream they
 * share (implemented by a SessionStore such as mcpgen/redis) and the relay that lets any
 * replica answer the server-initiated requests of any other, by tagging request ids (and the
 * progress tokens the engine gives them) with the copy that sent them.
 */
import { isJsonObject, type JSONRPCMessage } from '../../core/jsonrpc.js';
import { CANCELLED_NOTIFICATION } from '../../core/special-methods.js';
import { Method } from '../../../generated/methods.js';
import type { HttpReply } from './http-types.js';

/**
 * The standalone stream of a session served by several replicas: what the server sends outside
 * a request's stream goes there from any replica, and the replica holding the client's GET
 * connection writes it out. Event ids it mints are told apart from request-stream ones by `owns`.
 */
export interface StandaloneChannel {
  /** True while a GET connection of this replica carries the stream. */
  readonly connected: boolean;
  /** Adds a message to the stream; resolves once it is stored, rejects when it cannot be. */
  send(message: JSONRPCMessage | JSONRPCMessage[]): Promise<void>;
  /** Whether `lastEventId` is an event id of this stream. */
  owns(lastEventId: string): boolean;
  /** Opens the stream on this GET (from its start for new events, or after `lastEventId`). */
  open(lastEventId: string | undefined): Promise<HttpReply>;
  /** Closes the GET connection for SEP-1699 polling; false where impossible. */
  closeConnection(): Promise<boolean>;
  /** Ends this replica's connection and subscription; the shared stream stays. */
  close(): Promise<void>;
  /**
   * Starts receiving the responses other replicas relay to this copy of the session (`copy`
   * names it); resolves once nothing relayed to it can be missed. Without this member (and
   * {@link relayResponse}) server-initiated requests keep the engine's ids and are answered
   * only through this replica.
   */
  listenForResponses?(copy: string, deliver: (response: JSONRPCMessage) => void): Promise<void>;
  /**
   * Hands a response, or a progress notification for a request, to the copy `copy` that sent
   * the request; resolves false when no such copy listens.
   */
  relayResponse?(copy: string, response: JSONRPCMessage): Promise<boolean>;
}

/** A standalone channel that relays responses between the replicas of a session. */
type RelayingChannel = StandaloneChannel & Required<Pick<StandaloneChannel, 'listenForResponses' | 'relayResponse'>>;

/**
 * The relay of one local copy of a shared session. Every local copy numbers its requests from
 * 1, so a request's id on the wire is the engine's id under this copy's stream prefix: unique
 * within the session, and it names the copy that awaits the response. Cancellations of those
 * requests follow suit, and so do their numeric progress tokens (the engine's request ids), so
 * the client's progress notifications for a request find the copy awaiting it too.
 */
export class ReplicaRelay {
  private listening: Promise<void> | undefined;

  private constructor(
    private readonly channel: RelayingChannel,
    /** This copy's stream prefix. */
    private readonly copy: string,
    /** The session's prefix, shared by every copy. */
    private readonly session: string,
  ) {}

  /** The relay over `channel`, or undefined when the channel relays nothing (one replica answers its own requests). */
  static over(channel: StandaloneChannel | undefined, copy: string, session: string): ReplicaRelay | undefined {
    if (channel?.listenForResponses === undefined || channel.relayResponse === undefined) return undefined;
    return new ReplicaRelay(channel as RelayingChannel, copy, session);
  }

  /** `message` with this copy's id tag, or `message` itself when it needs none. */
  tag(message: JSONRPCMessage): JSONRPCMessage {
    if ('method' in message && 'id' in message && typeof message.id === 'number') {
      const params = 'params' in message && isJsonObject(message.params) ? message.params : undefined;
      const meta = params !== undefined && isJsonObject(params._meta) ? params._meta : undefined;
      const tagged = { ...message, id: `${this.copy}.${message.id}` } as JSONRPCMessage & { params?: unknown };
      if (meta !== undefined && typeof meta.progressToken === 'number') {
        tagged.params = { ...params, _meta: { ...meta, progressToken: `${this.copy}.${meta.progressToken}` } };
      }
      return tagged;
    }
    if ('method' in message && message.method === CANCELLED_NOTIFICATION && 'params' in message && isJsonObject(message.params) && typeof message.params.requestId === 'number') {
      return { ...message, params: { ...message.params, requestId: `${this.copy}.${message.params.requestId}` } } as JSONRPCMessage;
    }
    return message;
  }

  /**
   * Subscribes once, before the first tagged request leaves, so its response cannot be missed;
   * `deliver` receives each relayed response with the engine's id back.
   */
  listen(deliver: (response: unknown) => void): Promise<void> {
    this.listening ??= this.channel.listenForResponses(this.copy, (response) => {
      const local = this.untag(response);
      if (local !== undefined) deliver(local);
    }).catch((error: unknown) => {
      this.listening = undefined;
      throw error;
    });
    return this.listening;
  }

  /**
   * Splits POSTed messages: responses to this copy's requests (and progress notifications for
   * them) get the engine's ids back, those of another copy's requests are relayed to it
   * (`report` hears of those nobody awaits), and the rest passes unchanged. Undefined when
   * nothing is left for this copy.
   */
  async sortInbound(value: unknown, report: (error: Error) => void): Promise<unknown> {
    const items = Array.isArray(value) ? value : [value];
    const kept: unknown[] = [];
    const relayed: Promise<void>[] = [];
    const session = `${this.session}.`;
    for (const item of items) {
      const local = this.untag(item);
      if (local !== undefined) {
        kept.push(local);
        continue;
      }
      const tag = tagOf(item);
      if (tag !== undefined && tag.startsWith(session)) {
        const copy = tag.slice(0, tag.lastIndexOf('.'));
        relayed.push(this.channel.relayResponse(copy, item as JSONRPCMessage).then((delivered) => {
          // The copy that sent the request is gone, and the request with it.
          if (!delivered) report(new Error(`No replica awaits the response to request ${JSON.stringify(tag)}; it is dropped`));
        }));
        continue;
      }
      kept.push(item);
    }
    await Promise.all(relayed);
    if (kept.length === 0) return undefined;
    return Array.isArray(value) ? kept : kept[0];
  }

  /**
   * A response to a request of this copy, or a progress notification for one, with the engine's
   * id (or token) back; undefined for anything else.
   */
  private untag(item: unknown): unknown {
    const tag = tagOf(item);
    const mine = `${this.copy}.`;
    if (tag === undefined || !tag.startsWith(mine)) return undefined;
    const id = Number(tag.slice(mine.length));
    if (!Number.isSafeInteger(id)) return undefined;
    if (isResponseItem(item)) return { ...item, id };
    const params = (item as { params: Record<string, unknown> }).params;
    return { ...(item as object), params: { ...params, progressToken: id } };
  }
}

/** The copy-tagged id of a response, or token of a progress notification; undefined for anything else. */
function tagOf(item: unknown): string | undefined {
  if (isResponseItem(item)) return typeof item.id === 'string' ? item.id : undefined;
  if (!isJsonObject(item) || item.method !== Method.NotificationsProgress || 'id' in item || !isJsonObject(item.params)) return undefined;
  return typeof item.params.progressToken === 'string' ? item.params.progressToken : undefined;
}

/** True for a JSON-RPC response (a result or an error). */
export function isResponseItem(item: unknown): item is { id?: unknown } {
  return isJsonObject(item) && !('method' in item) && ('result' in item || 'error' in item);
}
