// Checks the interop peers (test/interop/peers/) against each other, before our SDK is
// involved: each official-SDK client against the other generation's official-SDK server,
// plus the server tools (progress, cancellation) that the summary does not cover.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import type { PeerSummary } from './peers/client-support.js';

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const peer = (file: string): string => fileURLToPath(new URL(`./peers/${file}`, import.meta.url));
// Every peer is a TypeScript file run by Node with the tsx loader.
const tsNode = (file: string): string[] => [process.execPath, '--import', 'tsx', peer(file)];

async function runPair(clientFile: string, serverFile: string, env: Record<string, string> = {}): Promise<unknown> {
  const [command, ...args] = [...tsNode(clientFile), ...tsNode(serverFile)];
  const { stdout } = await run(command as string, args, {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    timeout: 20_000,
  });
  const lines = stdout.trim().split('\n');
  return JSON.parse(lines[lines.length - 1] ?? '') as unknown;
}

const toolNames = [
  'echo',
  'add',
  'slow',
  'sample',
  'elicit',
  'roots',
  ...Array.from({ length: 30 }, (_, i) => `t${String(i).padStart(2, '0')}`),
];

function expectedSummary(server: string, protocolVersion: string): PeerSummary {
  return {
    protocolVersion,
    serverInfo: { name: server, version: '1.0.0' },
    tools: toolNames,
    echo: 'echo: hi',
    add: '5',
    resource: 'hello',
    prompt: 'Hello, Ada!',
    sample: 'sampled',
    elicit: { action: 'accept', content: { name: 'Ada', age: 36 } },
    roots: ['file:///tmp/peer-root'],
  };
}

describe('official SDK peers against each other', () => {
  it('v1 client with v2 server', async () => {
    const summary = await runPair('v1-stdio-client.ts', 'v2-stdio-server.ts');
    expect(summary).toEqual(expectedSummary('peer-v2-stdio-server', '2025-11-25'));
  });

  it('v2 client with v1 server', async () => {
    const summary = await runPair('v2-stdio-client.ts', 'v1-stdio-server.ts');
    expect(summary).toEqual(expectedSummary('peer-v1-stdio-server', '2025-11-25'));
  });

  it('v1 client pins an older protocol version with the v2 server', async () => {
    const summary = await runPair('v1-stdio-client.ts', 'v2-stdio-server.ts', { PEER_PROTOCOL_VERSION: '2025-06-18' });
    expect(summary).toEqual(expectedSummary('peer-v2-stdio-server', '2025-06-18'));
  });

  it('v2 client pins 2026-07-28 with the v2 server', async () => {
    const summary = await runPair('v2-stdio-client.ts', 'v2-stdio-server.ts', { PEER_PROTOCOL_VERSION: '2026-07-28' });
    expect(summary).toEqual(expectedSummary('peer-v2-stdio-server', '2026-07-28'));
  });

  it('v2 client pinned to 2026-07-28 fails cleanly against the v1 server', async () => {
    const failure = runPair('v2-stdio-client.ts', 'v1-stdio-server.ts', { PEER_PROTOCOL_VERSION: '2026-07-28' });
    await expect(failure).rejects.toMatchObject({ code: 1, stdout: expect.stringContaining('"error"') });
  });
});

describe.each(['v1-stdio-server.ts', 'v2-stdio-server.ts'])('%s slow tool', (serverFile) => {
  async function connect(): Promise<{ client: Client; errors: Error[] }> {
    const [command, ...args] = tsNode(serverFile);
    const client = new Client({ name: 'peers-test', version: '1.0.0' });
    const errors: Error[] = [];
    client.onerror = (error) => errors.push(error);
    await client.connect(new StdioClientTransport({ command: command as string, args, cwd: repoRoot, stderr: 'inherit' }));
    return { client, errors };
  }

  it('reports progress every 50 ms and returns done', async () => {
    const { client } = await connect();
    try {
      const progress: number[] = [];
      const result = await client.callTool({ name: 'slow', arguments: { ms: 300 } }, undefined, {
        onprogress: (update) => progress.push(update.progress),
      });
      expect(result.content).toEqual([{ type: 'text', text: 'done' }]);
      expect(progress.length).toBeGreaterThanOrEqual(3);
      expect(progress).toEqual([...progress].sort((a, b) => a - b));
    } finally {
      await client.close();
    }
  });

  it('stops working when the call is cancelled', async () => {
    const { client, errors } = await connect();
    try {
      const abort = new AbortController();
      // Cancelled once the handler reports progress, that is, once it runs.
      const call = client.callTool({ name: 'slow', arguments: { ms: 5_000 } }, undefined, {
        signal: abort.signal,
        onprogress: () => abort.abort(),
      });
      await expect(call).rejects.toThrow();
      // A second slow call is the clock: the server handles notifications/cancelled before it, so
      // progress of the first one sent before that arrives before this call's first progress;
      // progress of the first one after it, while this call ticks three times, would mean the
      // server ignored the cancellation (the client reports progress for an unknown token).
      let settled: number | undefined;
      const clock = await client.callTool({ name: 'slow', arguments: { ms: 150 } }, undefined, {
        onprogress: () => {
          settled ??= errors.length;
        },
      });
      expect(clock.content).toEqual([{ type: 'text', text: 'done' }]);
      expect(settled).toBeDefined();
      expect(errors.slice(settled).map((error) => error.message)).toEqual([]);
      const echo = await client.callTool({ name: 'echo', arguments: { text: 'still here' } });
      expect(echo.content).toEqual([{ type: 'text', text: 'echo: still here' }]);
    } finally {
      await client.close();
    }
  });
});
