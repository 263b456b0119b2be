/**
 * mcpgen's low-level entry (`mcpgen/advanced`), runtime-neutral like the root: the JSON-RPC
 * engine and the transport contract's pieces (for custom peers and transports), revision
 * tables, the run-time JSON Schema interpreter, the stateless era's machinery (the era cache,
 * the response cache, sealed request state, `_meta` keys) and the defaults behind them.
 * Everyday names are in `mcpgen`.
 */
// The engine and the transport contract.
export { Protocol, DEFAULT_REQUEST_TIMEOUT_MS, type ProtocolOptions } from './core/protocol.js';
export { InMemoryTransport } from './core/in-memory.js';
export { ParseFailure } from './core/wire-format.js';
export { hasCapability } from './era/capabilities.js';
export { eras, loaders } from '../generated/index.js';
// JSON Schema supplied at run time.
export { InterpretingJsonSchemaValidator, type InterpretingValidatorOptions } from './json-schema/interpreter.js';
export type { FormatCheck } from './json-schema/formats.js';
export { defaultJsonSchemaValidator } from './peers/client-helpers/tool-output.js';
// The stateless era (2026-07-28 on).
export { InMemoryEraCache, defaultEraCache, type EraCache, type EraChoice } from './era/client-era.js';
export { ResponseCache } from './era/client-response-cache.js';
export { DEFAULT_MAX_INPUT_ROUNDS } from './era/client-mrtr.js';
export { StatelessContext } from './era/stateless-request.js';
export {
  RequestStateCodec,
  RequestStateError,
  createRequestStateBinding,
  digestArguments,
  type RequestStateBinding,
  type RequestStateBindingInput,
  type RequestStatePayload,
} from './era/request-state.js';
export {
  CLIENT_CAPABILITIES_META,
  CLIENT_INFO_META,
  LOG_LEVEL_META,
  PROTOCOL_VERSION_META,
  SERVER_INFO_META,
  SUBSCRIPTION_ID_META,
} from './era/meta.js';
