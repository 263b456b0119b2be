import type { RevisionModule } from './contract.js';

/**
 * The five error codes that JSON-RPC 2.0 itself reserves. They are fixed by that
 * specification, not by any MCP revision, so they are the right answer only when no
 * revision is bound yet (for example a parse error on the very first frame). Everywhere a
 * revision is known, its `errorCodes` table is the source of truth.
 */
export const JSONRPC_ERROR_CODES = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
} as const;

/**
 * The first code of JSON-RPC 2.0's implementation-defined server-error range, which mcpgen
 * answers with for transport-level refusals and lost answers (see IMPLEMENTATION_ERROR_CODES).
 * A name of its own, so that constants defined from it are plain values a bundler can drop.
 */
export const SERVER_ERROR_CODE = -32000;

/**
 * The codes mcpgen itself answers with from JSON-RPC 2.0's implementation-defined server-error
 * range (-32000 to -32099). They are this SDK's choices, not MCP's: no revision defines them,
 * which is why they live here and not in a generated `errors.ts`.
 */
export const IMPLEMENTATION_ERROR_CODES = {
  /** A transport-level refusal (bad headers, forbidden origin) or an answer the transport lost. */
  SERVER_ERROR: SERVER_ERROR_CODE,
  /** The session id is unknown or the session has ended. */
  SESSION_NOT_FOUND: -32001,
} as const;

/** Names of the JSON-RPC 2.0 reserved error codes. */
export type StandardErrorName = keyof typeof JSONRPC_ERROR_CODES;

/**
 * Returns the numeric code for `name`, preferring the bound revision's table and falling back
 * to the JSON-RPC 2.0 value only when there is no revision or it lacks the entry.
 */
export function errorCode(revision: RevisionModule | undefined, name: StandardErrorName): number {
  return revision?.errorCodes[name] ?? JSONRPC_ERROR_CODES[name];
}
