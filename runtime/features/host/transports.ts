/**
 * Builds the transport a server entry asks for: a child process over stdio, Streamable HTTP
 * with the HTTP+SSE fallback (`http`), or HTTP+SSE alone (`sse`).
 */
import type { HeadersSource } from '../../transports/http/client-request.js';
import type { SessionRenewal } from '../../transports/http/client-transport.js';
import { FallbackHttpClientTransport } from '../../transports/http/fallback.js';
import { LegacySseClientTransport } from '../../transports/http/legacy-sse-client.js';
import type { Transport } from '../../core/transport.js';
import { StdioClientTransport } from '../../transports/node/stdio-client.js';
import type { RemoteServerConfig, ServerConfig } from './config.js';

/** Which wire a connected server uses. */
export type HostTransportKind = 'stdio' | 'streamable-http' | 'sse';

/** What the connection wants to hear from its transport. */
export interface TransportHooks {
  readonly stderrCapacity?: number | undefined;
  readonly onstderr?: ((chunk: string) => void) | undefined;
  readonly onsessionrenewed?: ((renewal: SessionRenewal) => void) | undefined;
  /** Wait after ending a child's stdin before signals (the stdio transport's closeTimeoutMs). */
  readonly closeTimeoutMs?: number | undefined;
  /** Wait after SIGTERM before SIGKILL. */
  readonly killTimeoutMs?: number | undefined;
}

/** Creates the (not yet started) transport for `config`. */
export function createTransport(config: ServerConfig, hooks: TransportHooks): Transport {
  if (config.type === 'stdio') {
    return new StdioClientTransport({
      command: config.command,
      args: config.args,
      cwd: config.cwd,
      env: config.env,
      stderrCapacity: hooks.stderrCapacity,
      onstderr: hooks.onstderr,
      closeTimeoutMs: hooks.closeTimeoutMs,
      killTimeoutMs: hooks.killTimeoutMs,
    });
  }
  const shared = { fetch: config.auth?.fetch, headers: headersOf(config) };
  if (config.type === 'sse') return new LegacySseClientTransport(config.url, shared);
  return new FallbackHttpClientTransport(config.url, { ...shared, streamableHttp: { onsessionrenewed: hooks.onsessionrenewed } });
}

/** The kind of a transport made by {@link createTransport}, once connected. */
export function transportKind(transport: Transport): HostTransportKind {
  if (transport instanceof StdioClientTransport) return 'stdio';
  if (transport instanceof FallbackHttpClientTransport) return transport.kind ?? 'streamable-http';
  return 'sse';
}

/** The entry's fixed headers under the auth hook's (which may be computed per request). */
function headersOf(config: RemoteServerConfig): HeadersSource | undefined {
  const fixed = config.headers;
  const auth = config.auth?.headers;
  if (auth === undefined) return fixed;
  return async () => {
    const merged = new Headers(fixed);
    new Headers(typeof auth === 'function' ? await auth() : auth).forEach((value, name) => merged.set(name, value));
    return merged;
  };
}
