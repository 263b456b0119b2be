// The cases every transport must pass, run by one small test file per transport: a request
// and its response, ordering of interleaved notifications and concurrent requests, closing
// from the client side, and the parse-error answer to bytes that are no JSON (where the
// transport carries bytes at all).
import { describe, expect, it } from 'vitest';
import { Client, Server, type ClientOptions } from '../../../runtime/index.js';

/** One connection over the transport under test. */
export interface ContractConnection {
  /**
   * Resolves once the server side's engine saw the connection end: when the client closed it,
   * or at the latest when `cleanup` ended the server side (an HTTP endpoint keeps a session
   * whose client vanished until it is ended or expires).
   */
  readonly serverClosed: Promise<void>;
  /** Releases what the harness holds (HTTP handlers, streams). */
  cleanup(): Promise<void>;
}

/** How the suite reaches a transport. */
export interface ContractSubject {
  /** Connects `client` to `server` over a fresh connection of this transport. */
  connect(client: Client, makeServer: () => Server): Promise<ContractConnection>;
  /**
   * Sends text that is no JSON to a fresh server side and resolves with the JSON-RPC error
   * code it answers; absent for transports that carry values rather than bytes.
   */
  readonly injectInvalidJson?: (makeServer: () => Server) => Promise<number>;
  /** Options of the suite's clients, e.g. a protocol version that puts the transport in the stateful era. */
  readonly clientOptions?: ClientOptions;
}

/** A server with an echo tool that reports progress 1..`steps` before answering. */
export function contractServer(): Server {
  const server = new Server({ name: 'contract', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', () => ({ tools: [{ name: 'echo', inputSchema: { type: 'object' } }] }));
  server.setRequestHandler('tools/call', async (params, context) => {
    const steps = Number(params.arguments?.steps ?? 0);
    for (let step = 1; step <= steps; step++) await context.reportProgress(step, steps);
    return { content: [{ type: 'text', text: String(params.arguments?.text ?? '') }] };
  });
  return server;
}

function textOf(result: unknown): string {
  return ((result as { content: { text: string }[] }).content[0]!).text;
}

/** Registers the contract cases for one transport. */
export function transportContract(name: string, subject: ContractSubject): void {
  describe(`transport contract: ${name}`, () => {
    it('carries a request and its response', async () => {
      const client = new Client({ name: 'contract-client', version: '1.0.0' }, { eraCache: false, ...subject.clientOptions });
      const connection = await subject.connect(client, contractServer);
      try {
        expect(textOf(await client.request('tools/call', { name: 'echo', arguments: { text: 'hello' } }))).toBe('hello');
      } finally {
        await client.close();
        await connection.cleanup();
      }
    });

    it('keeps the order of notifications within a request and answers concurrent requests each', async () => {
      const client = new Client({ name: 'contract-client', version: '1.0.0' }, { eraCache: false, ...subject.clientOptions });
      const connection = await subject.connect(client, contractServer);
      try {
        const progress: number[] = [];
        const answered = await client.request('tools/call', { name: 'echo', arguments: { text: 'done', steps: 5 } }, { onprogress: (update) => progress.push(update.progress) });
        expect(progress).toEqual([1, 2, 3, 4, 5]);
        expect(textOf(answered)).toBe('done');
        const texts = Array.from({ length: 10 }, (_, index) => `call-${index}`);
        const results = await Promise.all(texts.map((text) => client.request('tools/call', { name: 'echo', arguments: { text } })));
        expect(results.map(textOf)).toEqual(texts);
      } finally {
        await client.close();
        await connection.cleanup();
      }
    });

    it('closes once from the client side, refusing later requests, and ends the server side', async () => {
      const client = new Client({ name: 'contract-client', version: '1.0.0' }, { eraCache: false, ...subject.clientOptions });
      const connection = await subject.connect(client, contractServer);
      let closes = 0;
      client.onclose = () => closes++;
      // A request first, so that every transport has a server side to end (a stateless-era
      // client whose era is cached sends nothing while connecting).
      expect(await client.request('tools/list', {})).toMatchObject({ tools: [{ name: 'echo' }] });
      await client.close();
      await client.close();
      expect(closes).toBe(1);
      await expect(client.request('tools/list', {})).rejects.toMatchObject({ code: 'NOT_CONNECTED' });
      await connection.cleanup();
      await connection.serverClosed;
    });

    // Only transports that carry text have bytes a peer could get wrong (the in-memory pair
    // hands over values), so the case exists for those alone.
    const injectInvalidJson = subject.injectInvalidJson;
    if (injectInvalidJson !== undefined) {
      it('answers bytes that are no JSON with a parse error', async () => {
        expect(await injectInvalidJson(contractServer)).toBe(-32700);
      });
    }
  });
}
