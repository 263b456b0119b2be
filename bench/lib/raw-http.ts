// JSON-RPC over Streamable HTTP with no SDK: what the loss runs send, so that every message a
// response carries is seen and counted (an SDK's client would hide a duplicate or a stray answer).
import { type Agent, type IncomingHttpHeaders, request, type OutgoingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';

/** A finished POST: its status, headers and every JSON-RPC message its body carried, in order. */
export interface RawReply {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly messages: readonly unknown[];
}

export interface RawPostOptions {
  readonly agent: Agent;
  readonly url: URL;
  readonly body: unknown;
  readonly sessionId?: string | undefined;
  readonly protocolVersion?: string | undefined;
  /** Called with each message of an SSE response as it arrives. */
  readonly onmessage?: ((message: unknown) => void) | undefined;
  /** Aborts the request (it then rejects). */
  readonly signal?: AbortSignal | undefined;
  /** Called with the socket the request went out on. */
  readonly onsocket?: ((socket: Socket) => void) | undefined;
}

/**
 * Splits an SSE body into the data of its events. A bench-sized parser: the buffer holds at
 * most one event's text, which the servers under test keep small.
 */
class SseEvents {
  private buffer = '';

  constructor(private readonly ondata: (data: string) => void) {}

  push(chunk: string): void {
    this.buffer += chunk.includes('\r') ? chunk.replace(/\r\n?/g, '\n') : chunk;
    let end = this.buffer.indexOf('\n\n');
    while (end !== -1) {
      const event = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const data = event
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5));
      if (data.length > 0) this.ondata(data.join('\n'));
      end = this.buffer.indexOf('\n\n');
    }
  }
}

/** POSTs one JSON-RPC message (or batch) and resolves once the response has ended. */
export function rawPost(options: RawPostOptions): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const headers: OutgoingHttpHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    if (options.sessionId !== undefined) headers['mcp-session-id'] = options.sessionId;
    if (options.protocolVersion !== undefined) headers['mcp-protocol-version'] = options.protocolVersion;
    const { url } = options;
    const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', agent: options.agent, headers, signal: options.signal }, (res) => {
      const messages: unknown[] = [];
      const contentType = String(res.headers['content-type'] ?? '');
      res.setEncoding('utf8');
      let failure: Error | undefined;
      const take = (text: string): void => {
        try {
          const message: unknown = JSON.parse(text);
          messages.push(message);
          options.onmessage?.(message);
        } catch (error) {
          failure ??= error as Error;
        }
      };
      if (contentType.startsWith('text/event-stream')) {
        const events = new SseEvents(take);
        res.on('data', (chunk: string) => events.push(chunk));
      } else {
        let body = '';
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => {
          if (body !== '' && contentType.startsWith('application/json')) take(body);
        });
      }
      res.on('end', () => (failure === undefined ? resolve({ status: res.statusCode ?? 0, headers: res.headers, messages }) : reject(failure)));
      res.on('error', reject);
    });
    if (options.onsocket !== undefined) req.on('socket', options.onsocket);
    req.on('error', reject);
    req.end(JSON.stringify(options.body));
  });
}

/** A JSON-RPC response's id, or undefined for anything else (a request, a notification). */
export function responseId(message: unknown): unknown {
  if (typeof message !== 'object' || message === null) return undefined;
  const record = message as Record<string, unknown>;
  return 'result' in record || 'error' in record ? record.id : undefined;
}
