/**
 * `mcpgen/redis`: shared state on Redis for many server replicas behind a plain (round-robin)
 * load balancer. Needs the `redis` package (node-redis), an optional peer dependency.
 */
export { RedisChangeBus, type ListKind } from './change-bus.js';
export { RedisConnection, SharedStateUnavailableError, type RedisClient, type RedisConnectionOptions } from './connection.js';
export { RedisEventStore, type RedisEventStoreOptions } from './event-store.js';
export { RedisRequestStateKeyRing, type RedisKeyRingOptions } from './request-state-keys.js';
export { createRedisScaleOut, type RedisScaleOut, type RedisScaleOutOptions } from './scale-out.js';
export { RedisSessionStore, type RedisSessionStoreOptions } from './session-store.js';
export { RedisTaskStore, type RedisTaskStoreOptions } from './task-store.js';
