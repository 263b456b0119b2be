/**
 * What handlers find in `context.extra` when the Streamable HTTP server transport delivered
 * their request: the HTTP-only members beyond the session id.
 */
import type { MessageExtra } from '../../core/transport.js';
import type { HttpRequestView } from './http-types.js';

/**
 * What handlers find in `context.extra` on the HTTP transport, beyond the session id.
 * Read it with {@link httpExtra}.
 */
export interface HttpMessageExtra extends MessageExtra {
  /**
   * Closes the HTTP connection of the stream this request is answered on, without ending the
   * stream (SEP-1699 polling, 2025-11-25 and later, event store required): the client
   * reconnects after the `retry` interval and receives what was sent meanwhile. Resolves false
   * where that is not possible.
   */
  readonly closeStream?: () => Promise<boolean>;
  /** Closes the connection of the session's standalone GET stream the same way. */
  readonly closeStandaloneStream?: () => Promise<boolean>;
  /** The HTTP request's headers (lower-case names). */
  readonly requestHeaders?: (name: string) => string | undefined;
}

/** Reads the HTTP-specific members of a handler context's `extra`. */
export function httpExtra(context: { readonly extra: MessageExtra | undefined }): HttpMessageExtra {
  return (context.extra ?? {}) as HttpMessageExtra;
}

/** The `extra` of messages POSTed in `request` to a Streamable HTTP transport. */
export function extraFor(request: HttpRequestView, transport: { readonly sessionId: string | undefined; closeStandaloneStream(): Promise<boolean> }): HttpMessageExtra {
  // Members are assigned, not spread in: V8 builds a literal with members after a spread on a slow path.
  const extra: { -readonly [K in keyof HttpMessageExtra]: HttpMessageExtra[K] } = {
    requestHeaders: (name) => request.header(name),
    closeStandaloneStream: () => transport.closeStandaloneStream(),
  };
  if (request.authInfo !== undefined) extra.authInfo = request.authInfo;
  if (transport.sessionId !== undefined) extra.sessionId = transport.sessionId;
  return extra;
}
