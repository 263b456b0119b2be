/**
 * The HTTP client transports' Node path (their `httpClient` option): requests on `node:http`
 * and `node:https` over keep-alive agents instead of fetch, whose per-request machinery (a
 * Request, an AbortSignal chain, web streams) costs several times the exchange itself on Node.
 * Redirects follow fetch's rules. Node only.
 */
import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { urlToHttpOptions } from 'node:url';
import { asError, SdkError } from '../../core/errors.js';
import type { AbortHook, ClientResponse, HttpClient, HttpClientRequest } from '../http/client-response.js';
import { NodeResponse } from './http-client-response.js';

/** Default `maxSockets`: open connections per origin. */
export const DEFAULT_MAX_SOCKETS_PER_ORIGIN = 256;
/** Default `maxRedirects`, fetch's own limit. */
export const DEFAULT_MAX_REDIRECTS = 20;

/** Options of {@link nodeHttpClient}. */
export interface NodeHttpClientOptions {
  /**
   * Most open connections per origin; default {@link DEFAULT_MAX_SOCKETS_PER_ORIGIN}. Each open
   * event stream holds one. Requests beyond it wait in the agent's queue for a free connection,
   * so that queue holds at most the requests the transports have in flight.
   */
  readonly maxSockets?: number | undefined;
  /** Most redirects one request follows; default {@link DEFAULT_MAX_REDIRECTS}. */
  readonly maxRedirects?: number | undefined;
  /** Agents to use instead of the client's own keep-alive ones (e.g. for TLS options or a proxy). */
  readonly agents?: { readonly http?: HttpAgent | undefined; readonly https?: HttpsAgent | undefined } | undefined;
}

/** A {@link HttpClient} on `node:http` and `node:https`; `close()` ends its idle connections. */
export interface NodeHttpClient extends HttpClient {
  /** Closes the idle pooled connections of the client's own agents (not of agents passed in). */
  close(): void;
}

/**
 * Creates the Node HTTP client for the `httpClient` option of the HTTP client transports: one
 * keep-alive connection pool per client, bodies read straight from the socket, aborts, fetch's
 * redirect rules (`requestInit.redirect` is honoured; on a cross-origin hop the `authorization`,
 * `cookie` and `proxy-authorization` headers are dropped). A GET or DELETE whose reused
 * connection the server had closed just before is sent once more on a new connection; a POST
 * is not, because the server may have run it. It takes aborts as an AbortHook (`dispatch`), so
 * that no request pays for an AbortSignal. One client can serve many transports.
 *
 * @example
 * ```ts
 * import { Client, StreamableHttpClientTransport } from 'mcpgen';
 * import { nodeHttpClient } from 'mcpgen/node';
 *
 * const client = new Client({ name: 'demo', version: '1.0.0' });
 * await client.connect(new StreamableHttpClientTransport('http://127.0.0.1:3000/mcp', { httpClient: nodeHttpClient() }));
 * await client.close();
 * ```
 */
export function nodeHttpClient(options: NodeHttpClientOptions = {}): NodeHttpClient {
  const maxSockets = options.maxSockets ?? DEFAULT_MAX_SOCKETS_PER_ORIGIN;
  if (!Number.isSafeInteger(maxSockets) || maxSockets < 1) throw new SdkError('INVALID_ARGUMENT', `maxSockets must be a positive integer, got ${String(maxSockets)}`);
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  if (!Number.isSafeInteger(maxRedirects) || maxRedirects < 0) throw new SdkError('INVALID_ARGUMENT', `maxRedirects must be a non-negative integer, got ${String(maxRedirects)}`);
  const own = {
    http: options.agents?.http === undefined ? new HttpAgent({ keepAlive: true, maxSockets }) : undefined,
    https: options.agents?.https === undefined ? new HttpsAgent({ keepAlive: true, maxSockets }) : undefined,
  };
  const agents: Agents = { http: options.agents?.http ?? own.http!, https: options.agents?.https ?? own.https!, target: undefined };
  return {
    request: (request) => send(agents, request, new SignalHook(request.signal), maxRedirects, true),
    dispatch: (request, abort) => send(agents, request, abort, maxRedirects, true),
    close: () => {
      own.http?.destroy();
      own.https?.destroy();
    },
  };
}

interface Agents {
  readonly http: HttpAgent;
  readonly https: HttpsAgent;
  /**
   * Where the last request went, as `node:http` options. A transport sends every message to
   * one URL, and turning a URL into options (its getters, percent-decoding) costs per request;
   * one entry bounds this cache.
   */
  target: { readonly href: string; readonly options: RequestOptions } | undefined;
}

/** The `node:http` options of a request to `url` (host, port, path, auth), the target taken from the one-entry cache. */
function requestOptions(agents: Agents, url: URL, request: Outgoing, agent: HttpAgent): RequestOptions {
  const href = url.href;
  let target = agents.target;
  if (target === undefined || target.href !== href) agents.target = target = { href, options: urlToHttpOptions(url) };
  // Member by member: urlToHttpOptions gives a null-prototype object, which Object.assign and
  // spreads copy on V8's slow path (several times the cost of the conversion itself).
  const { protocol, hostname, port, path, auth } = target.options;
  return { protocol, hostname, port, path, auth, method: request.method, headers: request.headers, agent };
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Request headers a cross-origin redirect drops, as fetch does. */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];
/** Request headers that describe the body, dropped when a redirect turns the request into a GET. */
const BODY_HEADERS = ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location'];

/** A request as `send` takes it: its abort comes apart, as an {@link AbortHook}. */
type Outgoing = Omit<HttpClientRequest, 'signal'>;

/** An {@link AbortHook} over an AbortSignal, for requests that come with one. */
class SignalHook implements AbortHook {
  constructor(private readonly signal: AbortSignal) {}

  get aborted(): boolean {
    return this.signal.aborted;
  }

  get reason(): unknown {
    return this.signal.reason;
  }

  whenAborted(listener: () => void): () => void {
    const signal = this.signal;
    if (signal.aborted) {
      listener();
      return () => undefined;
    }
    signal.addEventListener('abort', listener, { once: true });
    return () => signal.removeEventListener('abort', listener);
  }
}

/** Sends `request`; `retry` allows one resend of a GET or DELETE after a reused connection was found closed. */
function send(agents: Agents, request: Outgoing, abort: AbortHook, redirectsLeft: number, retry: boolean): Promise<ClientResponse> {
  return new Promise<ClientResponse>((resolve, reject) => {
    const { url } = request;
    if (abort.aborted) {
      reject(abort.reason);
      return;
    }
    const secure = url.protocol === 'https:';
    if (!secure && url.protocol !== 'http:') {
      reject(new SdkError('INVALID_ARGUMENT', `The Node HTTP client sends http: and https: URLs only, not ${url.protocol}`));
      return;
    }
    // Node sets Content-Length itself for a body given whole to end().
    const outgoing: ClientRequest = (secure ? httpsRequest : httpRequest)(requestOptions(agents, url, request, secure ? agents.https : agents.http));
    let response: NodeResponse | undefined;
    const detach = abort.whenAborted(() => {
      const reason = asError(abort.reason);
      outgoing.destroy(reason);
      response?.abort(reason);
    });
    outgoing.on('response', (message: IncomingMessage) => {
      const status = message.statusCode ?? 0;
      const location = message.headers.location;
      if (REDIRECTS.has(status) && location !== undefined && request.redirect !== 'manual') {
        // Drained for the connection's sake; a failure of this unread body does not matter.
        message.on('error', () => undefined);
        message.resume();
        detach();
        if (request.redirect === 'error') {
          reject(new Error(`${request.method} ${url.href} was redirected (HTTP ${status}) and redirect is 'error'`));
          return;
        }
        if (redirectsLeft === 0) {
          reject(new Error(`${request.method} ${url.href}: too many redirects`));
          return;
        }
        resolve(send(agents, redirected(request, status, new URL(location, url)), abort, redirectsLeft - 1, true));
        return;
      }
      response = new NodeResponse(message, detach);
      // A response without a body is handed over once drained, when its connection is free again.
      if (response.body === null && !message.readableEnded) message.once('end', () => resolve(response!));
      else resolve(response);
    });
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      if (response !== undefined) return; // The body reports failures after the headers.
      detach();
      if (abort.aborted) {
        reject(abort.reason);
      } else if (retry && outgoing.reusedSocket && error.code === 'ECONNRESET' && request.method !== 'POST') {
        // A keep-alive connection the server closed as the request went out: sent again once,
        // but only when it is idempotent. A POST may have reached the server and run already
        // (a tools/call with side effects), so its failure goes to the caller instead.
        resolve(send(agents, request, abort, redirectsLeft, false));
      } else {
        reject(error);
      }
    });
    outgoing.end(request.body);
  });
}

/** The request a redirect with `status` to `target` asks for, by fetch's rules. */
function redirected(request: Outgoing, status: number, target: URL): Outgoing {
  const headers: Record<string, string> = { ...request.headers };
  if (target.origin !== request.url.origin) for (const name of CREDENTIAL_HEADERS) delete headers[name];
  const toGet = status === 303 || ((status === 301 || status === 302) && request.method === 'POST');
  if (!toGet) return { ...request, url: target, headers };
  for (const name of BODY_HEADERS) delete headers[name];
  return { ...request, method: 'GET', url: target, headers, body: undefined };
}
