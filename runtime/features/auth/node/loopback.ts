/**
 * The loopback redirect receiver of RFC 8252 §7.3 for CLI and desktop hosts: an HTTP listener on
 * 127.0.0.1 that the authorization server redirects the user's browser to, completing the
 * authorization without the user copying anything.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SdkError } from '../../../core/errors.js';
import { assertAuthUrlScheme } from '../url-policy.js';

/** Default wait for the user to finish in the browser: 5 minutes. */
export const DEFAULT_LOOPBACK_TIMEOUT_MS = 5 * 60_000;

/** Options of {@link startLoopbackReceiver}. */
export interface LoopbackReceiverOptions {
  /** The port (default 0: an ephemeral port, which RFC 8252 asks authorization servers to accept). */
  readonly port?: number | undefined;
  /** The callback path (default `/callback`). */
  readonly path?: string | undefined;
  /** Opens the authorization URL for the user (default: the platform's browser opener). */
  readonly openBrowser?: ((url: string) => void | Promise<void>) | undefined;
  /** How long to wait for the redirect (default 5 minutes). */
  readonly timeoutMs?: number | undefined;
  /** The page shown in the browser once the redirect arrived. */
  readonly successHtml?: string | undefined;
}

/** A running loopback receiver; its members plug into an `OAuthClientProvider`. */
export interface LoopbackReceiver {
  /** The redirect URI, e.g. `http://127.0.0.1:53127/callback`. */
  readonly redirectUrl: string;
  /**
   * Opens `authorizationUrl` in the browser and resolves with the redirect that carries the same
   * `state`; redirects with another state are refused and do not end the wait.
   */
  redirectToAuthorization(authorizationUrl: URL): Promise<URL>;
  /** Stops listening; a pending wait rejects. */
  close(): Promise<void>;
}

/**
 * Opens `url` with the platform's opener, without a shell. Only `https:` URLs (and `http:` on
 * loopback) are opened: the openers hand `file:`, `search-ms:` and custom protocols to whatever
 * program claims them, so an authorization endpoint from hostile metadata could run one.
 * Throws SdkError('AUTHORIZATION_FAILED') for anything else.
 */
export function openInBrowser(url: string): void {
  assertAuthUrlScheme(new URL(url), 'browser');
  const [command, args] = process.platform === 'darwin'
    ? ['open', [url]]
    : process.platform === 'win32'
      ? ['rundll32', ['url.dll,FileProtocolHandler', url]]
      : ['xdg-open', [url]];
  const child = spawn(command, args, { stdio: 'ignore', detached: true });
  child.on('error', () => undefined);
  child.unref();
}

const DEFAULT_SUCCESS_HTML = '<!doctype html><meta charset="utf-8"><title>Authorized</title><p>Authorization complete. You can close this window.</p>';

/**
 * Starts a loopback receiver on 127.0.0.1.
 *
 * @example
 * ```ts
 * import { Client, StreamableHttpClientTransport } from 'mcpgen';
 * import 'mcpgen/auth'; // makes the transports' authProvider option OAuth
 * import { FileOAuthStore, startLoopbackReceiver } from 'mcpgen/node';
 *
 * const receiver = await startLoopbackReceiver();
 * const transport = new StreamableHttpClientTransport('https://mcp.example.com/mcp', {
 *   authProvider: {
 *     clientMetadata: { client_name: 'my-cli' },
 *     redirectUrl: receiver.redirectUrl,
 *     redirectToAuthorization: (url) => receiver.redirectToAuthorization(url),
 *     store: new FileOAuthStore('./oauth.json'),
 *   },
 * });
 * await new Client({ name: 'my-cli', version: '1.0.0' }).connect(transport);
 * await receiver.close();
 * ```
 */
export async function startLoopbackReceiver(options: LoopbackReceiverOptions = {}): Promise<LoopbackReceiver> {
  const path = options.path ?? '/callback';
  const waiting = new Map<string, { resolve: (url: URL) => void; reject: (error: Error) => void }>();
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const state = url.searchParams.get('state');
    const waiter = state === null ? undefined : waiting.get(state);
    if (request.method !== 'GET' || url.pathname !== path || waiter === undefined) {
      // Someone else's request, or a forged or stale redirect: it must not end the wait.
      response.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end('Unexpected request: no authorization with this state is in progress.');
      return;
    }
    waiting.delete(state!);
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(options.successHtml ?? DEFAULT_SUCCESS_HTML);
    waiter.resolve(new URL(`${redirectUrl}${url.search}`));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const redirectUrl = `http://127.0.0.1:${port}${path}`;
  const open = options.openBrowser ?? openInBrowser;
  const timeoutMs = options.timeoutMs ?? DEFAULT_LOOPBACK_TIMEOUT_MS;

  return {
    redirectUrl,
    redirectToAuthorization: async (authorizationUrl) => {
      const state = authorizationUrl.searchParams.get('state');
      if (state === null) throw new SdkError('INVALID_ARGUMENT', 'The authorization URL has no state parameter');
      // In front of any opener, the application's own included.
      assertAuthUrlScheme(authorizationUrl, 'browser');
      const arrived = new Promise<URL>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(state);
          reject(new SdkError('AUTHORIZATION_FAILED', `No authorization redirect arrived at ${redirectUrl} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiting.set(state, {
          resolve: (url) => {
            clearTimeout(timer);
            resolve(url);
          },
          reject: (error) => {
            clearTimeout(timer);
            reject(error);
          },
        });
      });
      await open(authorizationUrl.href);
      return await arrived;
    },
    close: async () => {
      for (const waiter of waiting.values()) waiter.reject(new SdkError('AUTHORIZATION_FAILED', 'The loopback receiver closed'));
      waiting.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
