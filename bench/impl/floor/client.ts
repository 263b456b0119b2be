// The floor's clients: direct calls in memory, a spawned child with line-delimited JSON on stdio.
import { spawn } from 'node:child_process';
import { resultText } from '../../lib/tools.js';
import type { BenchClient, ClientSide } from '../../lib/types.js';
import { createFloorServer, FloorClient, LineSplitter, type FloorResponse } from './protocol.js';

/** Wraps a floor client whose handshake is done; exported for the HTTP floor. */
export function benchClient(client: FloorClient, close: () => Promise<void>, serverPid?: number): BenchClient {
  return {
    serverPid,
    call: async (text) => resultText(await client.callEcho(text)),
    listTools: () => client.listTools(),
    close,
  };
}

export const clientSide: ClientSide = {
  async inMemory(spec) {
    const answer = createFloorServer(spec);
    // Messages cross as objects, as in the official SDKs' in-memory pairs; the reply settles
    // the caller's promise, so each call still costs one promise and one microtask.
    const client: FloorClient = new FloorClient((message) => {
      const reply = answer(message);
      if (reply !== undefined) client.receive(reply);
    });
    await client.initialize();
    return benchClient(client, async () => undefined);
  },
  async connectStdio(server) {
    const child = spawn(server.command, [...server.args], { stdio: ['pipe', 'pipe', 'inherit'] });
    const client = new FloorClient((message) => {
      child.stdin.write(`${JSON.stringify(message)}\n`);
    });
    const splitter = new LineSplitter((line) => client.receive(JSON.parse(line) as FloorResponse));
    child.stdout.on('data', (chunk: Buffer) => splitter.push(chunk));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.once('exit', () => client.failAll(new Error('floor stdio server exited')));
    await client.initialize();
    return benchClient(
      client,
      async () => {
        child.stdin.end();
        await exited;
      },
      child.pid,
    );
  },
};
