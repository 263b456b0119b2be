import type * as Stateful from '../../../generated/protocol/stateful.js';
import type { RequestStateCodec, RequestStateOptions } from '../../era/request-state.js';
import type { CacheHint } from '../../era/subscriptions.js';
import type { JsonSchemaValidator } from '../../json-schema/types.js';
import type { ToJsonSchema } from '../../json-schema/schema-input.js';
import type { EndpointOptions } from '../../peers/endpoint.js';
import type { Server } from '../../peers/server.js';
import type { CacheKind } from './handlers.js';
import type { McpServerHooks } from './hooks.js';
import type { ListChangedMode } from './list-changed.js';
import type { McpSession } from './session.js';

/** Options of an {@link McpServer}. */
export interface McpServerOptions extends EndpointOptions {
  /** Guidance for the model, sent in the initialize result. */
  readonly instructions?: string;
  /**
   * Capabilities to declare on top of those derived from what is registered: declare `tools`
   * (or `resources`, `prompts`) here when the first one is registered only after clients
   * connect, add `experimental`, or turn `resources.subscribe` off.
   */
  readonly capabilities?: Stateful.ServerCapabilities;
  /** Revisions to negotiate (default: every released stateful revision). */
  readonly supportedRevisions?: readonly string[];
  /**
   * Items per page of every list (default 1,000): large enough that clients which never follow
   * `nextCursor` see every item of a typical server, small enough to bound one answer.
   */
  readonly pageSize?: number;
  /**
   * Longest URI (in characters) that `resources/read` and `resources/subscribe` match against
   * resource templates (default 64 KiB); a longer one is refused with -32602 unless a fixed
   * resource has exactly that URI.
   */
  readonly maxUriLength?: number;
  /** Checks JSON Schemas given as data (default: the interpreting validator, which needs no `eval`). */
  readonly validator?: JsonSchemaValidator;
  /**
   * Converts library schemas that cannot describe themselves as JSON Schema (no
   * `~standard.jsonSchema`: zod 3, plain valibot), e.g. `(schema) => zodToJsonSchema(schema)`
   * from zod-to-json-schema. Schemas that can (zod 4.2+, arktype) do not call it.
   */
  readonly toJsonSchema?: ToJsonSchema;
  /** How list changes are announced (default `'coalesce'`). */
  readonly listChanged?: ListChangedMode;
  /** Declare `logging`, so that handlers can log (default true). */
  readonly logging?: boolean;
  /** Refuse tool names outside the spec's guidance (default true); false allows any non-empty name. */
  readonly strictToolNames?: boolean;
  /**
   * Cache hints of list and read results in the stateless era (`ttlMs`, `cacheScope`), per
   * kind; unset kinds get `{ ttlMs: 0, cacheScope: 'private' }` (re-fetch, not shareable).
   */
  readonly cache?: Partial<Record<CacheKind, CacheHint>>;
  /**
   * How multi round-trip requests protect their `requestState` (see ServerOptions). One codec
   * is shared by every Server this McpServer creates, so a retry may reach any of them.
   */
  readonly requestState?: RequestStateOptions | RequestStateCodec;
  /** Hooks around tool calls, resource reads and prompt gets (see {@link McpServerHooks}); more with `addHooks`. */
  readonly hooks?: readonly McpServerHooks[];
  /**
   * Receives what no caller can be told: errors of the engine and transport, and every handler
   * that threw (SdkError('HANDLER_FAILED') naming the method, the request id and the tool,
   * resource or prompt, with what was thrown as its `cause`), while the client gets what the
   * spec says: an `isError` result for a tool, an internal error otherwise.
   */
  readonly onerror?: (error: Error) => void;
  /** Called for every new Server, after the built-in handlers are installed: add custom methods here. */
  readonly setupServer?: (server: Server, session: McpSession) => void;
}
