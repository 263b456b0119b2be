// The floor: the same MCP exchange as plain JSON-RPC objects, with no SDK and no validation.
// What it costs is what any implementation must pay on the transport it runs over.
import { echoResult, ECHO_TOOL, jsonTools } from '../../lib/tools.js';
import type { ServerSpec } from '../../lib/types.js';

export type FloorId = number;

export interface FloorRequest {
  jsonrpc: '2.0';
  id?: FloorId;
  method: string;
  params?: Record<string, unknown>;
}

export interface FloorResponse {
  jsonrpc: '2.0';
  id: FloorId | null;
  result?: unknown;
  error?: { code: number; message: string };
}

export const FLOOR_PROTOCOL_VERSION = '2025-11-25';

/** The server side: answers a request, or returns undefined for a notification. */
export function createFloorServer(spec: ServerSpec): (message: FloorRequest) => FloorResponse | undefined {
  const tools = { tools: jsonTools(spec.toolCount) };
  return (message) => {
    if (message.id === undefined) return undefined;
    switch (message.method) {
      case 'initialize':
        return {
          jsonrpc: '2.0',
          id: message.id,
          result: { protocolVersion: FLOOR_PROTOCOL_VERSION, capabilities: { tools: {} }, serverInfo: { name: 'bench-echo', version: '1.0.0' } },
        };
      case 'tools/list':
        return { jsonrpc: '2.0', id: message.id, result: tools };
      case 'tools/call': {
        const args = (message.params?.arguments ?? {}) as { text?: unknown };
        return { jsonrpc: '2.0', id: message.id, result: echoResult(String(args.text ?? '')) };
      }
      default:
        return { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: `Method not found: ${message.method}` } };
    }
  };
}

/** The client side: ids, a table of pending requests, and the initialize handshake. */
export class FloorClient {
  private nextId = 1;
  private readonly pending = new Map<FloorId, { resolve: (result: unknown) => void; reject: (error: Error) => void }>();

  constructor(private readonly send: (message: FloorRequest) => void) {}

  request(method: string, params?: Record<string, unknown>): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.send(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params });
    });
  }

  notify(method: string): void {
    this.send({ jsonrpc: '2.0', method });
  }

  /** Settles the request a response answers. */
  receive(message: FloorResponse): void {
    if (message.id === null) return;
    const waiter = this.pending.get(message.id);
    if (waiter === undefined) return;
    this.pending.delete(message.id);
    if (message.error !== undefined) waiter.reject(new Error(message.error.message));
    else waiter.resolve(message.result);
  }

  /** Fails every pending request (the connection ended). */
  failAll(error: Error): void {
    for (const waiter of this.pending.values()) waiter.reject(error);
    this.pending.clear();
  }

  async initialize(): Promise<void> {
    await this.request('initialize', {
      protocolVersion: FLOOR_PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: 'bench-client', version: '1.0.0' },
    });
    this.notify('notifications/initialized');
  }

  async callEcho(text: string): Promise<unknown> {
    return this.request('tools/call', { name: ECHO_TOOL, arguments: { text } });
  }

  async listTools(): Promise<number> {
    const result = (await this.request('tools/list')) as { tools: unknown[] };
    return result.tools.length;
  }
}

/**
 * Splits a byte stream into lines: looks for newlines only in each new chunk, and decodes each
 * line once, however many chunks it arrived in.
 */
export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(private readonly online: (line: string) => void) {}

  push(chunk: Buffer): void {
    let start = 0;
    let newline = chunk.indexOf(10);
    while (newline !== -1) {
      let line: Buffer = chunk.subarray(start, newline);
      if (this.pendingBytes > 0) {
        this.pending.push(line);
        line = Buffer.concat(this.pending, this.pendingBytes + line.length);
        this.pending = [];
        this.pendingBytes = 0;
      }
      if (line.length > 0) this.online(line.toString('utf8'));
      start = newline + 1;
      newline = chunk.indexOf(10, start);
    }
    if (start < chunk.length) {
      this.pending.push(chunk.subarray(start));
      this.pendingBytes += chunk.length - start;
    }
  }
}
