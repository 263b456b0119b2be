/**
 * Builds the transport a server entry asks for: a child process over stdio, Streamable HTTP
 * with the HTTP+SSE fallback (`http`), HTTP+SSE alone (`sse`), or WebSocket (`ws`, with the
 * `ws` package's class where it is installed, which sends headers, else the runtime's own).
 */
import type { HeadersSource } from '../../transports/http/client-request.js';
import type { SessionRenewal } from '../../transports/http/client-transport.js';
import { FallbackHttpClientTransport } from '../../transports/http/fallback.js';
import { LegacySseClientTransport } from '../../transports/http/legacy-sse-client.js';
import type { Transport } from '../../core/transport.js';
import { StdioClientTransport } from '../../transports/node/stdio-client.js';
import { nodeHttpClient, type NodeHttpClient } from '../../transports/node/http-client.js';
import { WebSocketClientTransport } from '../../transports/ws/client-transport.js';
import { globalWebSocket, type WebSocketConstructor } from '../../transports/ws/socket.js';
import type { RemoteServerConfig, ServerConfig } from './config.js';

/** Which wire a connected server uses. */
export type HostTransportKind = 'stdio' | 'streamable-http' | 'sse' | 'websocket';

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
  if (config.type === 'ws') return new WebSocketClientTransport(config.url, { headers: headersOf(config), loadWebSocket: webSocketClass });
  // One keep-alive pool for every remote server; a fetch of the entry's auth (OAuth) takes precedence.
  const shared = { fetch: config.auth?.fetch, httpClient: hostHttpClient(), headers: headersOf(config) };
  if (config.type === 'sse') return new LegacySseClientTransport(config.url, shared);
  return new FallbackHttpClientTransport(config.url, { ...shared, streamableHttp: { onsessionrenewed: hooks.onsessionrenewed } });
}

let sharedHttpClient: NodeHttpClient | undefined;

/** The host's Node HTTP client, made on first use; its idle pooled sockets do not keep the process alive. */
function hostHttpClient(): NodeHttpClient {
  sharedHttpClient ??= nodeHttpClient();
  return sharedHttpClient;
}

/** The kind of a transport made by {@link createTransport}, once connected. */
export function transportKind(transport: Transport): HostTransportKind {
  if (transport instanceof StdioClientTransport) return 'stdio';
  if (transport instanceof FallbackHttpClientTransport) return transport.kind ?? 'streamable-http';
  if (transport instanceof WebSocketClientTransport) return 'websocket';
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

/** The `ws` package's class (an optional peer, loaded only for a ws server), else the runtime's. */
async function webSocketClass(): Promise<WebSocketConstructor> {
  try {
    return (await import('ws')).WebSocket as unknown as WebSocketConstructor;
  } catch (error) {
    const standard = globalWebSocket();
    if (standard !== undefined) return standard;
    throw new Error('a ws server needs the `ws` package on this Node version (npm install ws)', { cause: error });
  }
}
