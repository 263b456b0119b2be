import type * as Stateful from '../../generated/protocol/stateful.js';
import type { IncomingRequest, OutgoingRequest } from '../core/middleware.js';

/** The params of every request of the protocol, by method (the newest stateful revision's types). */
export type RequestParamsOf = {
  [M in keyof Stateful.ClientRequestMap | keyof Stateful.ServerRequestMap]: M extends keyof Stateful.ClientRequestMap
    ? Stateful.ClientRequestMap[M]['params']
    : M extends keyof Stateful.ServerRequestMap ? Stateful.ServerRequestMap[M]['params'] : never;
};

/**
 * Narrows a middleware's call to one method, typing its params as that method's: incoming
 * params were checked against the negotiated revision's schema before any middleware ran, and
 * outgoing ones are what the typed senders took.
 *
 * @example
 * ```ts
 * import { isCallOf, McpServer, ProtocolError, ErrorCodes } from 'mcpgen';
 *
 * const mcp = new McpServer({ name: 'guarded', version: '1.0.0' });
 * mcp.use({
 *   incoming(call, next) {
 *     if (isCallOf(call, 'tools/call') && call.params.name.startsWith('admin-')) {
 *       throw new ProtocolError(ErrorCodes.INVALID_REQUEST, `${call.params.name} is not available here`);
 *     }
 *     return next();
 *   },
 * });
 * ```
 */
export function isCallOf<C extends IncomingRequest | OutgoingRequest, M extends keyof RequestParamsOf & string>(
  call: C,
  method: M,
): call is C & { readonly method: M; readonly params: RequestParamsOf[M] } {
  return call.method === method;
}
