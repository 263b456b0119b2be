/**
 * The stateless era (2026-07-28 on) as the Streamable HTTP client transport sees it: learnt
 * from the revision facts the engine sends with each message, it adds the metadata headers
 * (`Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`), tracks the exchanges that a cancellation closes,
 * and turns the JSON-RPC error in an HTTP error answer into the request's answer.
 */
import { isJsonObject, type JSONRPCMessage, type RequestId } from '../../core/jsonrpc.js';
import type { TransportSendOptions } from '../../core/transport.js';
import { headerParameters, parameterHeaders, standardHeaders, type HeaderParameters } from '../../era/mcp-headers.js';
import type { HttpTransportError } from './client-errors.js';
import type { RequestAbort } from './client-request.js';
import { IdTable } from '../../core/id-table.js';

/** What the transport knows of the stateless era it speaks. */
export interface StatelessFacts {
  /** The revision every request declares (and `MCP-Protocol-Version` carries). */
  readonly revision: string;
  /** The input schema of a tool the Client has listed, for the `Mcp-Param-*` headers. */
  readonly toolInputSchema: ((name: string) => unknown) | undefined;
}

/**
 * The era the next message travels in: stateless facts when the engine speaks a stateless
 * revision, undefined when it speaks a stateful one, and `current` when it says nothing.
 */
export function eraOf(options: TransportSendOptions | undefined, current: StatelessFacts | undefined): StatelessFacts | undefined {
  const facts = options?.revision;
  if (facts === undefined) return current;
  if (facts.era !== 'stateless') return undefined;
  return current?.revision === facts.revision && current.toolInputSchema === options?.toolInputSchema
    ? current
    : { revision: facts.revision, toolInputSchema: options?.toolInputSchema };
}

/** The stateless era's per-request state of one transport. */
export class StatelessExchanges {
  /** Requests in flight, so that cancelling one closes its exchange. */
  readonly inflight = new IdTable<RequestId, RequestAbort>();
  /** Parsed `x-mcp-header` annotations by input schema object. */
  private readonly headerParameterCache = new WeakMap<object, HeaderParameters>();

  /** Adds the era's metadata headers for one message to `headers`. */
  addMetadataHeaders(headers: Record<string, string>, era: StatelessFacts, message: JSONRPCMessage | JSONRPCMessage[]): void {
    if (Array.isArray(message) || !('method' in message)) return;
    const params = (message as { params?: unknown }).params;
    standardHeaders(message.method, params, headers);
    if (!isJsonObject(params) || typeof params.name !== 'string' || !('id' in message)) return;
    const schema = era.toolInputSchema?.(params.name);
    if (!isJsonObject(schema)) return;
    let parsed = this.headerParameterCache.get(schema);
    if (parsed === undefined) {
      parsed = headerParameters(schema);
      this.headerParameterCache.set(schema, parsed);
    }
    if (parsed.ok) parameterHeaders(parsed.parameters, params.arguments, headers);
  }
}

/** The JSON-RPC error response an HTTP error answer carried for one of `ids`, if it carried one. */
export function errorAnswerOf(error: HttpTransportError, ids: readonly RequestId[]): unknown {
  if (error.rpcError === undefined || error.body === undefined) return undefined;
  try {
    const value = JSON.parse(error.body) as unknown;
    if (isJsonObject(value) && (typeof value.id === 'string' || typeof value.id === 'number') && ids.includes(value.id)) return value;
  } catch {
    // A truncated or non-JSON body is no answer.
  }
  return undefined;
}
