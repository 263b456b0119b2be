// A scripted stateless-era server for Client tests: a transport whose peer is a function from
// each request the Client sends to the reply (a result, an error, or nothing at all).
import type { JSONRPCMessage } from '../../../runtime/core/jsonrpc.js';
import type { MessageExtra, Transport } from '../../../runtime/core/transport.js';

/** A request as the scripted server sees it. */
export interface SeenRequest {
  readonly id: string | number;
  readonly method: string;
  readonly params: Record<string, unknown> & { _meta?: Record<string, unknown> };
}

/** What the script answers: a result, a JSON-RPC error, or silence. */
export type ScriptReply = { readonly result: unknown } | { readonly error: { code: number; message: string; data?: unknown } } | undefined;

/** The `server/discover` result of a plain 2026-07-28 server with tools. */
export const DISCOVER = {
  resultType: 'complete',
  ttlMs: 0,
  cacheScope: 'public',
  supportedVersions: ['2026-07-28'],
  capabilities: { tools: { listChanged: true }, resources: {}, prompts: {} },
  instructions: 'Use the tools.',
  _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'scripted', version: '2.0.0' } },
};

export class ScriptedServerTransport implements Transport {
  onmessage?: (message: unknown, extra?: MessageExtra) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  readonly requests: SeenRequest[] = [];
  readonly notifications: Array<{ method: string; params: unknown }> = [];
  /** Set to give the transport a server identity for the era cache. */
  serverKey: string | undefined;
  private closed = false;

  constructor(private readonly script: (request: SeenRequest) => ScriptReply | Promise<ScriptReply>) {}

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage | JSONRPCMessage[]): Promise<void> {
    const copy = JSON.parse(JSON.stringify(message)) as Record<string, unknown>;
    if (typeof copy.method !== 'string') return;
    if (!('id' in copy)) {
      this.notifications.push({ method: copy.method, params: copy.params });
      return;
    }
    const request: SeenRequest = { id: copy.id as string | number, method: copy.method, params: (copy.params ?? {}) as SeenRequest['params'] };
    this.requests.push(request);
    void Promise.resolve(this.script(request)).then((reply) => {
      if (reply === undefined || this.closed) return;
      setTimeout(() => this.onmessage?.({ jsonrpc: '2.0', id: request.id, ...reply }), 0);
    });
  }

  /** Delivers a server notification to the client. */
  notify(method: string, params?: unknown): void {
    this.onmessage?.(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }
}

/** A complete result of the era with `fields`. */
export function complete(fields: Record<string, unknown>): { result: unknown } {
  return { result: { resultType: 'complete', ...fields } };
}
