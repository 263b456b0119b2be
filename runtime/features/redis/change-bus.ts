/**
 * List-changed fan-out across replicas. A list change on one replica is sent once on a durable
 * Redis channel (a bounded stream with a wake-up, durable-channel.ts: a replica whose subscriber
 * was reconnecting hears it once it is back); every replica (the origin too) then tells the
 * clients whose streams it holds:
 * `subscriptions/listen` streams (2026-07-28 on) that opted in, and GET streams of stateful
 * sessions. Each client stream lives on exactly one replica, so each hears a change once.
 */
import { Client } from '../../peers/client.js';
import { asError, SdkError } from '../../core/errors.js';
import { createLinkedPair } from '../../core/in-memory.js';
import type { McpServer } from '../mcp-server/mcp-server.js';
import type { Server } from '../../peers/server.js';
import type { RedisConnection } from './connection.js';
import { DurableReceiver, sendDurable, type DurableChannelBounds } from './durable-channel.js';
import { randomBytes } from 'node:crypto';
import { Method } from '../../../generated/methods.js';

/** A list whose changes are announced. */
export type ListKind = 'tools' | 'prompts' | 'resources';

type Notifier = (params?: Record<string, unknown>, options?: unknown) => Promise<void>;
const NOTIFIERS = { tools: 'notifyToolListChanged', prompts: 'notifyPromptListChanged', resources: 'notifyResourceListChanged' } as const;
const KINDS = Object.keys(NOTIFIERS) as ListKind[];
/** The bus stream: changes are coalesced per macrotask, so a thousand entries is a long backlog. */
const BUS_BOUNDS: DurableChannelBounds = { maxLength: 1_000, ttlMs: 60 * 60_000 };
/** How long a session's shared subscription set outlives its last change (a day; sessions end sooner). */
const SUBSCRIPTION_TTL_MS = 24 * 60 * 60 * 1000;

interface Tracked {
  readonly server: Server;
  /** The Server's own senders, which the bus calls to deliver. */
  readonly notify: Readonly<Record<ListKind, Notifier>>;
  readonly resourceUpdated: (params: { uri: string }) => Promise<void>;
}

interface BusMessage {
  /** The replica that published. */
  readonly o: string;
  /** A list that changed. */
  readonly k?: ListKind;
  /** A resource that was updated. */
  readonly u?: string;
}

/**
 * The bus of one replica. Wrap the HTTP handler's server factory with {@link serverFactory}, and
 * {@link attach} an McpServer so its list changes are published; or publish changes yourself
 * with {@link listChanged} and {@link resourceUpdated}.
 *
 * @example
 * ```ts
 * import { createMcpHttpHandler, McpServer } from 'mcpgen';
 * import { RedisChangeBus, RedisConnection } from 'mcpgen/redis';
 *
 * const redis = await RedisConnection.connect({ prefix: 'weather' });
 * const bus = await RedisChangeBus.start(redis);
 * const mcp = new McpServer({ name: 'weather', version: '1.0.0' });
 * // …register tools…
 * await bus.attach(mcp);
 * const http = createMcpHttpHandler({ server: bus.serverFactory(() => mcp.createServer()) });
 * ```
 */
export class RedisChangeBus {
  /** This replica's id on the bus. */
  readonly replicaId = randomBytes(6).toString('hex');
  private readonly tracked = new Set<Tracked>();
  private readonly pending = new Set<ListKind>();
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private receiver: DurableReceiver | undefined;
  private taps: (() => Promise<void>)[] = [];

  private constructor(
    private readonly redis: RedisConnection,
    private readonly report: (error: Error) => void,
  ) {}

  /** Subscribes to the bus channel; rejects when Redis cannot be reached. */
  static async start(redis: RedisConnection, options: { onerror?: (error: Error) => void } = {}): Promise<RedisChangeBus> {
    const bus = new RedisChangeBus(redis, (error) => {
      try {
        options.onerror?.(error);
      } catch {
        // A failing error hook must not stop delivery.
      }
    });
    bus.receiver = await DurableReceiver.listen(redis, redis.key('bus'), BUS_BOUNDS, (text) => bus.receive(text), bus.report);
    return bus;
  }

  /** Number of local Servers the bus delivers to. */
  get servers(): number {
    return this.tracked.size;
  }

  /**
   * Wraps a server factory: every Server it creates publishes its list changes on the bus
   * instead of sending them itself, and receives the changes of every replica.
   */
  serverFactory(factory: () => Server | Promise<Server>): () => Promise<Server> {
    return async () => this.track(await factory());
  }

  /**
   * Publishes the list changes of `mcp` (made on this replica) on the bus: a Server of its own,
   * connected in-process, hears every change McpServer announces. Call it after registering,
   * since the capabilities of that Server (like any) follow from what is registered then.
   */
  async attach(mcp: McpServer): Promise<void> {
    // Resource updates go through the bus in both eras: a stateful session may have subscribed
    // on another replica, and its GET stream may be held by a third.
    const notifyResourceUpdated = (uri: string): Promise<void> => this.resourceUpdated(uri);
    mcp.notifyResourceUpdated = notifyResourceUpdated;
    const server = this.track(mcp.createServer());
    const [clientEnd, serverEnd] = createLinkedPair();
    const client = new Client({ name: 'mcpgen-change-bus', version: '1.0.0' }, { protocolVersion: '2025-11-25', negotiation: 'pin' });
    await server.connect(serverEnd);
    await client.connect(clientEnd);
    this.taps.push(async () => {
      await client.close().catch(() => undefined);
      await server.close().catch(() => undefined);
    });
  }

  /** Announces a change of `kind` to the clients of every replica (coalesced within one macrotask). */
  listChanged(kind: ListKind): void {
    this.pending.add(kind);
    this.flushTimer ??= setTimeout(() => this.flush(), 0);
  }

  /**
   * Announces an updated resource to every replica: each tells the `subscriptions/listen` streams
   * that asked for it, and the GET streams it holds of stateful sessions subscribed to it.
   */
  async resourceUpdated(uri: string): Promise<void> {
    await sendDurable(this.redis, this.redis.key('bus'), JSON.stringify({ o: this.replicaId, u: uri } satisfies BusMessage), BUS_BOUNDS);
  }

  /** Stops listening and closes the attached in-process Servers. */
  async close(): Promise<void> {
    if (this.flushTimer !== undefined) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    await Promise.allSettled(this.taps.map((close) => close()));
    this.taps = [];
    await this.receiver?.close();
    this.receiver = undefined;
  }

  private track(server: Server): Server {
    const notify = {} as Record<ListKind, Notifier>;
    const target = server as unknown as Record<string, Notifier>;
    for (const kind of KINDS) {
      notify[kind] = target[NOTIFIERS[kind]]!;
      // The change goes on the bus; delivery comes back through `notify` on every replica.
      const announce = async (): Promise<void> => this.listChanged(kind);
      target[NOTIFIERS[kind]] = announce;
    }
    const resourceUpdated = server.notifyResourceUpdated;
    const entry: Tracked = { server, notify, resourceUpdated };
    this.shareSubscriptions(server);
    const notifyResourceUpdated: Server['notifyResourceUpdated'] = async (params, options) => {
      // Stateful sessions keep their resources/subscribe state per Server: those stay local.
      if (server.era !== 'stateless') return resourceUpdated(params, options);
      await this.resourceUpdated(params.uri);
    };
    server.notifyResourceUpdated = notifyResourceUpdated;
    this.tracked.add(entry);
    // The engine's close hook, as McpServer does, so the application keeps `onclose`.
    const closed = server.protocol.onclose;
    const onclose = (): void => {
      this.tracked.delete(entry);
      closed?.();
    };
    server.protocol.onclose = onclose;
    return server;
  }

  /**
   * Records the `resources/subscribe` and `resources/unsubscribe` of stateful sessions in Redis
   * (a set per session, expiring like the session), so that the replica holding a session's GET
   * stream knows what it subscribed to, whichever replica took the request.
   */
  private shareSubscriptions(server: Server): void {
    for (const [method, command] of [[Method.ResourcesSubscribe, 'SADD'], [Method.ResourcesUnsubscribe, 'SREM']] as const) {
      const handler = server.protocol.requestHandler(method);
      if (handler === undefined) continue;
      server.protocol.setRequestHandler(method, async (params, context) => {
        const result = await handler(params, context);
        const session = context.extra?.sessionId;
        const uri = params?.uri;
        if (server.era === 'stateful' && session !== undefined && typeof uri === 'string') {
          const key = this.redis.key('subs', session);
          await this.redis.command([command, key, uri]);
          await this.redis.command(['PEXPIRE', key, String(SUBSCRIPTION_TTL_MS)]);
        }
        return result;
      });
    }
  }

  /** Sends the update on a GET stream this replica holds, when that session subscribed to `uri`. */
  private async updateIfSubscribed(entry: Tracked, uri: string): Promise<void> {
    const session = entry.server.protocol.transport?.sessionId;
    if (session === undefined) return;
    const member = await this.redis.command<number>(['SISMEMBER', this.redis.key('subs', session), uri]);
    if (member === 1) await entry.resourceUpdated({ uri });
  }

  private flush(): void {
    this.flushTimer = undefined;
    const kinds = [...this.pending];
    this.pending.clear();
    for (const kind of kinds) {
      sendDurable(this.redis, this.redis.key('bus'), JSON.stringify({ o: this.replicaId, k: kind } satisfies BusMessage), BUS_BOUNDS)
        .catch((error: unknown) => this.report(asError(error)));
    }
  }

  private receive(text: string): void {
    let message: BusMessage;
    try {
      message = JSON.parse(text) as BusMessage;
    } catch {
      return;
    }
    for (const entry of this.tracked) {
      const { server } = entry;
      const stateless = server.era === 'stateless';
      // A stateful session hears it on its GET stream, held by one replica: that one delivers.
      const holdsStream = server.era === 'stateful' && (server.protocol.transport as { hasStandaloneConnection?: boolean } | undefined)?.hasStandaloneConnection === true;
      if (!stateless && !holdsStream) continue;
      let sent: Promise<void> | undefined;
      if (message.k !== undefined && KINDS.includes(message.k)) {
        sent = entry.notify[message.k]();
      } else if (typeof message.u === 'string' && stateless) {
        sent = entry.resourceUpdated({ uri: message.u });
      } else if (typeof message.u === 'string') {
        sent = this.updateIfSubscribed(entry, message.u);
      }
      sent?.catch((error: unknown) => {
        // A session whose server did not declare `listChanged` for the list is not told.
        if (!(error instanceof SdkError && error.code === 'CAPABILITY_MISSING')) this.report(asError(error));
      });
    }
  }
}
