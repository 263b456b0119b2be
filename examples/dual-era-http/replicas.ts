/**
 * Story part: replicas. In the 2026-07-28 era a multi round-trip request may come back to any
 * replica, carrying the `requestState` another one sealed; replicas therefore share the
 * request-state keys. Two McpServers with the same keys stand in for two processes here, and
 * the client's `fetch` alternates between them, so every retry lands on the other one.
 */
import assert from 'node:assert/strict';
import { Client, createMcpHttpHandler, StreamableHttpClientTransport, type FetchLike } from '../../runtime/index.js';
// #region replicas
import { McpServer, type RequestStateOptions } from '../../runtime/index.js';
import { z } from 'zod';

// Every replica gets the same keys (from your secret store): the first seals, all of them open.
// To rotate, put a new key first and keep the old one until its states expire (ttlMs, default 10 min).
const requestState = { keys: [{ id: '2026-09', secret: process.env.MCP_STATE_SECRET ?? 'at least 32 bytes of secret material!!' }] };

function createReplica(state: RequestStateOptions = requestState): McpServer {
  const mcp = new McpServer({ name: 'replicated', version: '1.0.0' }, { requestState: state });
  mcp.registerTool('confirm', { inputSchema: z.object({ action: z.string() }) }, async ({ action }, context) => {
    const answer = await context.elicitForm(`Really ${action}?`, z.object({ ok: z.boolean() }), { inputKey: 'confirm' });
    return { content: [{ type: 'text', text: answer.action === 'accept' && answer.content.ok ? `${action}: done` : `${action}: skipped` }] };
  });
  return mcp;
}
// #endregion replicas


/** Calls `confirm` through a client whose `fetch` alternates between the replicas; returns what it got and who served. */
async function callThrough(servers: McpServer[]): Promise<{ outcome: unknown; served: number[] }> {
  const replicas = servers.map((mcp) => createMcpHttpHandler({ server: () => mcp.createServer(), allowedHosts: ['replicas.test'] }));
  const served: number[] = [];
  let turn = 0;
  // A load balancer in a function: request n goes to replica n mod 2.
  const balancer: FetchLike = (url, init) => {
    const index = turn++ % replicas.length;
    served.push(index);
    return replicas[index]!.fetch(new Request(url, init));
  };
  const client = new Client({ name: 'balanced', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } }, eraCache: false });
  client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { ok: true } }));
  try {
    await client.connect(new StreamableHttpClientTransport('http://replicas.test/mcp', { fetch: balancer }));
    assert.equal(client.era, 'stateless');
    const outcome = await client.callTool({ name: 'confirm', arguments: { action: 'deploy' } }).catch((error: unknown) => error);
    return { outcome, served };
  } finally {
    await client.close();
    await Promise.all(replicas.map((replica) => replica.close()));
  }
}

export async function runReplicas(): Promise<void> {
  const shared = await callThrough([createReplica(), createReplica()]);
  assert.deepEqual((shared.outcome as { content?: unknown }).content, [{ type: 'text', text: 'deploy: done' }]);
  // discover, the first round of tools/call and its retry: both replicas took part.
  assert.deepEqual(shared.served, [0, 1, 0]);

  // A replica with other keys cannot open the state: the retry is refused instead of trusted.
  const strangers = await callThrough([createReplica(), createReplica({ keys: [{ id: 'other', secret: 'another 32 bytes of secret material!!!!' }] })]);
  assert.ok(strangers.outcome instanceof Error, `expected a refusal, got ${JSON.stringify(strangers.outcome)}`);
}
