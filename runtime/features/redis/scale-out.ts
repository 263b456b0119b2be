/**
 * Everything a replica behind a round-robin load balancer needs, on one Redis connection.
 */
import type { McpHttpHandlerOptions } from '../../transports/http/handler.js';
import type { Server } from '../../peers/server.js';
import { RedisChangeBus } from './change-bus.js';
import { RedisConnection, type RedisConnectionOptions } from './connection.js';
import { RedisEventStore, type RedisEventStoreOptions } from './event-store.js';
import { RedisRequestStateKeyRing, type RedisKeyRingOptions } from './request-state-keys.js';
import { RedisSessionStore, type RedisSessionStoreOptions } from './session-store.js';

/** Options of {@link createRedisScaleOut}. */
export interface RedisScaleOutOptions extends RedisConnectionOptions {
  readonly sessions?: RedisSessionStoreOptions | undefined;
  readonly events?: RedisEventStoreOptions | undefined;
  readonly keyRing?: Omit<RedisKeyRingOptions, 'onerror'> | undefined;
}

/** The shared state of one replica; see {@link createRedisScaleOut}. */
export interface RedisScaleOut {
  readonly redis: RedisConnection;
  readonly sessionStore: RedisSessionStore;
  readonly eventStore: RedisEventStore;
  readonly bus: RedisChangeBus;
  readonly keyRing: RedisRequestStateKeyRing;
  /**
   * The handler options that put sessions, resumption and list-changed fan-out on Redis, for a
   * server factory (wrapped for the bus).
   */
  handlerOptions(factory: () => Server | Promise<Server>): Pick<McpHttpHandlerOptions, 'server' | 'sessionStore' | 'eventStore'>;
  /** Stops the bus and the key refresh, then closes the connection. */
  close(): Promise<void>;
}

/**
 * Connects to Redis and builds the session store, event store, change bus and requestState key
 * ring of one replica.
 *
 * @example
 * ```ts
 * import { McpServer } from 'mcpgen';
 * import { createMcpNodeServer } from 'mcpgen/node';
 * import { createRedisScaleOut } from 'mcpgen/redis';
 *
 * const shared = await createRedisScaleOut({ url: process.env.REDIS_URL, prefix: 'weather' });
 * const mcp = new McpServer({ name: 'weather', version: '1.0.0' }, { requestState: shared.keyRing.codec() });
 * // …register tools…
 * await shared.bus.attach(mcp);
 * const node = createMcpNodeServer({ ...shared.handlerOptions(() => mcp.createServer()), sessionIdleTimeoutMs: 300_000 });
 * await node.listen(3000);
 * ```
 */
export async function createRedisScaleOut(options: RedisScaleOutOptions = {}): Promise<RedisScaleOut> {
  const redis = await RedisConnection.connect(options);
  try {
    const bus = await RedisChangeBus.start(redis, { onerror: options.onerror });
    const keyRing = await RedisRequestStateKeyRing.load(redis, { ...options.keyRing, onerror: options.onerror });
    const sessionStore = new RedisSessionStore(redis, options.sessions);
    const eventStore = new RedisEventStore(redis, options.events);
    return {
      redis,
      sessionStore,
      eventStore,
      bus,
      keyRing,
      handlerOptions: (factory) => ({ server: bus.serverFactory(factory), sessionStore, eventStore }),
      close: async () => {
        keyRing.close();
        await bus.close();
        await redis.close();
      },
    };
  } catch (error) {
    await redis.close();
    throw error;
  }
}
