/**
 * The backwards-compatible connect of the Streamable HTTP spec: try Streamable HTTP, and when
 * the server answers the `initialize` POST in a way only an older server would, use the
 * HTTP+SSE transport of 2024-11-05 on the same URL instead.
 */
import { SdkError, asError } from '../../core/errors.js';
import type { JSONRPCMessage } from '../../core/jsonrpc.js';
import type { MessageExtra, Transport, TransportSendOptions } from '../../core/transport.js';
import { findHttpTransportError, HttpTransportError } from './client-errors.js';
import { isInitializeRequest } from './client-messages.js';
import type { HttpClientOptions } from './client-request.js';
import { StreamableHttpClientTransport, type StreamableHttpClientTransportOptions } from './client-transport.js';
import { LegacySseClientTransport, type LegacySseClientTransportOptions } from './legacy-sse-client.js';

/**
 * The statuses of the `initialize` POST that mean "not a Streamable HTTP endpoint", per the
 * spec's backwards-compatibility section. 401 and 403 are deliberately absent: they are about
 * credentials, and falling back would hide that from the user.
 */
export const FALLBACK_STATUSES: readonly number[] = [400, 404, 405];

/** Which transport a {@link FallbackHttpClientTransport} settled on. */
export type HttpTransportKind = 'streamable-http' | 'sse';

/** Options of a {@link FallbackHttpClientTransport} and {@link connectWithFallback}. */
export interface FallbackOptions extends HttpClientOptions {
  /** Options only for the Streamable HTTP attempt, over the shared ones. */
  readonly streamableHttp?: Omit<StreamableHttpClientTransportOptions, keyof HttpClientOptions> | undefined;
  /** Options only for the HTTP+SSE fallback, over the shared ones. */
  readonly sse?: Omit<LegacySseClientTransportOptions, keyof HttpClientOptions> | undefined;
  /** The event stream URL of the HTTP+SSE fallback; default the same URL. */
  readonly sseUrl?: string | URL | undefined;
}

/**
 * A transport that decides on its first message. When that is an `initialize` request, it is
 * POSTed with Streamable HTTP; if the server answers HTTP 400, 404 or 405, the transport opens
 * the HTTP+SSE stream on the same URL and sends `initialize` there instead. Everything after
 * that goes to the chosen transport. The Client sees one transport throughout, so a fallback
 * neither closes it nor repeats its handshake.
 *
 * A Client that probes the stateless era first sends `server/discover`; when that fails, the
 * choice is made again on the next message (the Client's `initialize`), so an old HTTP+SSE
 * server is still found after the probe.
 */
export class FallbackHttpClientTransport implements Transport {
  /** HTTP: `tcp` in telemetry's terms. */
  readonly networkTransport = 'tcp';
  onmessage?: (message: unknown, extra?: MessageExtra) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;

  /** The URL given by the user. */
  readonly url: URL;
  private readonly options: FallbackOptions;
  private active: Transport | undefined;
  private kindValue: HttpTransportKind | undefined;
  /** Settles once the first message chose the transport; later sends wait for it. */
  private choosing: Promise<void> | undefined;
  private started = false;
  private closed = false;

  constructor(url: string | URL, options: FallbackOptions = {}) {
    this.url = new URL(url);
    this.options = options;
  }

  /** The transport in use, once chosen. */
  get kind(): HttpTransportKind | undefined {
    return this.kindValue;
  }

  /** The chosen transport itself, e.g. to read its `endpoint` or call `terminateSession()`. */
  get transport(): Transport | undefined {
    return this.active;
  }

  get sessionId(): string | undefined {
    return this.active?.sessionId;
  }

  get closeReason(): Error | undefined {
    return this.active?.closeReason;
  }

  /** True unless HTTP+SSE was chosen, which mirrors no tool parameters. */
  get mirrorsToolParameters(): boolean {
    return this.kindValue !== 'sse';
  }

  /** Nothing is opened until the first message says what to try. */
  async start(): Promise<void> {
    if (this.started) {
      throw new SdkError('ALREADY_CONNECTED', 'FallbackHttpClientTransport already started');
    }
    this.started = true;
  }

  async send(message: JSONRPCMessage | JSONRPCMessage[], options?: TransportSendOptions): Promise<void> {
    if (!this.started || this.closed) {
      throw new SdkError('NOT_CONNECTED', 'FallbackHttpClientTransport is not running');
    }
    if (this.choosing === undefined) {
      const chosen = this.choose(message, options);
      this.choosing = chosen.then(() => undefined, () => undefined);
      return chosen;
    }
    if (this.active === undefined && !isInitializeRequest(message)) {
      await this.choosing;
    }
    if (this.active === undefined) {
      // The first message failed without settling the transport (a stateless-era probe): choose anew.
      const chosen = this.choose(message, options);
      this.choosing = chosen.then(() => undefined, () => undefined);
      return chosen;
    }
    await this.choosing;
    if (this.active === undefined) {
      // The message that was choosing failed without settling the transport (a stateless-era
      // request refused with a 4xx): this one tries for itself, so it gets its own answer.
      const chosen = this.choose(message, options);
      this.choosing = chosen.then(() => undefined, () => undefined);
      return chosen;
    }
    return this.active.send(message, options);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const active = this.active;
    if (active === undefined) {
      this.onclose?.();
      return;
    }
    await active.close();
  }

  private async choose(message: JSONRPCMessage | JSONRPCMessage[], options: TransportSendOptions | undefined): Promise<void> {
    const modern = new StreamableHttpClientTransport(this.url, { ...this.shared(), ...this.options.streamableHttp });
    await this.adopt(modern, 'streamable-http');
    try {
      await modern.send(message, options);
      return;
    } catch (error) {
      const status = findHttpTransportError(error)?.status;
      if (!isInitializeRequest(message) && options?.revision?.era === 'stateless' && status !== undefined && status >= 400 && status < 500) {
        // A failed stateless-era probe decides nothing; the Client's next message chooses again.
        this.detach(modern);
        await modern.close().catch(() => undefined);
        throw error;
      }
      if (!isInitializeRequest(message) || status === undefined || !FALLBACK_STATUSES.includes(status)) {
        throw error;
      }
      this.detach(modern);
      await modern.close().catch(() => undefined);
    }
    const legacy = new LegacySseClientTransport(this.options.sseUrl ?? this.url, { ...this.shared(), ...this.options.sse });
    try {
      await this.adopt(legacy, 'sse');
    } catch (error) {
      this.active = undefined;
      this.kindValue = undefined;
      throw new HttpTransportError(
        `${this.url.href} is neither a Streamable HTTP endpoint nor an HTTP+SSE one: ${asError(error).message}`,
        { method: 'GET', url: String(this.options.sseUrl ?? this.url), status: findHttpTransportError(error)?.status, cause: error },
      );
    }
    await legacy.send(message, options);
  }

  /** Wires `transport` to this one's callbacks and starts it. */
  private async adopt(transport: Transport, kind: HttpTransportKind): Promise<void> {
    const onmessage: Transport['onmessage'] = (message, extra) => this.onmessage?.(message, extra);
    const onerror = (error: Error): void => this.onerror?.(error);
    const onclose = (): void => {
      if (this.active === transport) this.onclose?.();
    };
    transport.onmessage = onmessage;
    transport.onerror = onerror;
    transport.onclose = onclose;
    this.active = transport;
    this.kindValue = kind;
    await transport.start();
  }

  /** Stops a transport that was tried and abandoned from reaching the owner. */
  private detach(transport: Transport): void {
    transport.onmessage = undefined;
    transport.onerror = undefined;
    transport.onclose = undefined;
    if (this.active === transport) {
      this.active = undefined;
      this.kindValue = undefined;
    }
  }

  private shared(): HttpClientOptions {
    const { fetch, httpClient, headers, requestInit, requestTimeoutMs, maxResponseBytes, maxEventBytes } = this.options;
    return { fetch, httpClient, headers, requestInit, requestTimeoutMs, maxResponseBytes, maxEventBytes };
  }
}

/** Anything that connects over a transport, such as a `Client`. */
export interface Connectable {
  connect(transport: Transport): Promise<void>;
}

/**
 * Connects `client` to the server at `url`, with Streamable HTTP when the server speaks it and
 * HTTP+SSE otherwise (see {@link FallbackHttpClientTransport}); resolves with the transport, whose
 * `kind` tells which one is in use. Errors other than the fallback statuses (401 and 403
 * included) reject as they are.
 *
 * @example
 * ```ts
 * import { Client, connectWithFallback } from 'mcpgen';
 *
 * const client = new Client({ name: 'demo', version: '1.0.0' });
 * const transport = await connectWithFallback(client, 'https://example.com/mcp');
 * console.log(transport.kind); // 'streamable-http', or 'sse' for a 2024-11-05 server
 * ```
 */
export async function connectWithFallback(client: Connectable, url: string | URL, options: FallbackOptions = {}): Promise<FallbackHttpClientTransport> {
  const transport = new FallbackHttpClientTransport(url, options);
  await client.connect(transport);
  return transport;
}
