/**
 * What a sealed requestState is bound to, through Servers on in-memory connections whose
 * server end carries the authenticated principal as an HTTP transport would: the principal's
 * kind (user "x" is not client "x"), the server that issued it (servers sharing a key do not
 * accept each other's states), and arguments JSON can carry (NaN does not digest as null).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createLinkedPair, McpServer } from '../../../runtime/index.js';
import { createRequestStateBinding, digestArguments, RequestStateCodec } from '../../../runtime/advanced.js';

const V = '2026-07-28';
const meta = { 'io.modelcontextprotocol/protocolVersion': V, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };
const keys = [{ id: 'shared', secret: 'a secret of at least thirty-two bytes shared by two servers' }];

function asker(name: string): McpServer {
  const mcp = new McpServer({ name, version: '1.0.0' }, { requestState: { keys } });
  mcp.registerTool('ask', { description: 'asks for a name' }, async (_args, context) => {
    const answer = await context.elicitForm('Name?', z.object({ name: z.string() }), { inputKey: 'name' });
    return { content: [{ type: 'text', text: answer.action === 'accept' ? answer.content.name : 'none' }] };
  });
  return mcp;
}

/** A client end of a connection to `mcp` whose requests arrive with `authInfo`, as the bearer guard hands them on. */
async function peer(mcp: McpServer, authInfo: Record<string, unknown> | undefined) {
  const [client, server] = createLinkedPair();
  await mcp.connect(server);
  const deliver = server.onmessage!;
  server.onmessage = (message, extra) => deliver(message, authInfo === undefined ? extra : { ...extra, authInfo });
  const replies = new Map<unknown, (value: Record<string, any>) => void>();
  client.onmessage = (message) => {
    const value = message as Record<string, any>;
    if ('id' in value && !('method' in value)) replies.get(value.id)?.(value);
  };
  await client.start();
  let next = 1;
  return async (params: Record<string, unknown>): Promise<Record<string, any>> => {
    const id = next++;
    const reply = new Promise<Record<string, any>>((resolve) => replies.set(id, resolve));
    await client.send({ jsonrpc: '2.0', id, method: 'tools/call', params: { _meta: meta, name: 'ask', arguments: {}, ...params } });
    return await reply;
  };
}

const answer = { name: { action: 'accept', content: { name: 'Ada' } } };

describe('the requestState binding', () => {
  it('tells a user from a client of the same name', async () => {
    const mcp = asker('files');
    const user = await peer(mcp, { token: 't1', scopes: [], subject: 'x' });
    const client = await peer(mcp, { token: 't2', scopes: [], clientId: 'x' });
    const { requestState } = (await user({})).result;
    expect(typeof requestState).toBe('string');
    const stolen = await client({ inputResponses: answer, requestState });
    expect(stolen.error).toMatchObject({ data: { reason: 'binding-mismatch' } });
    expect(stolen.error.message).toContain('principal');
    expect((await user({ inputResponses: answer, requestState })).result.content).toEqual([{ type: 'text', text: 'Ada' }]);
  });

  it('is bound to the server that issued it, even when servers share a key', async () => {
    const { requestState } = (await (await peer(asker('files'), undefined))({})).result;
    const other = await peer(asker('billing'), undefined);
    const refused = await other({ inputResponses: answer, requestState });
    expect(refused.error).toMatchObject({ data: { reason: 'binding-mismatch' } });
    expect(refused.error.message).toContain('different server');
    // A configured audience names the server instead of its name.
    const codecA = new RequestStateCodec({ keys, audience: 'https://files.example.com/mcp' });
    const binding = await createRequestStateBinding({ method: 'tools/call', target: 'ask', arguments: {}, server: 'https://files.example.com/mcp' });
    const token = await codecA.seal({ binding, round: 1, answers: {} });
    await expect(codecA.open(token, { ...binding, server: 'https://billing.example.com/mcp' })).rejects.toMatchObject({ reason: 'binding-mismatch', field: 'server' });
    expect((await codecA.open(token, binding)).binding.server).toBe('https://files.example.com/mcp');
  });

  it('refuses to digest numbers JSON cannot carry instead of digesting them as null', async () => {
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      await expect(digestArguments({ amount: value })).rejects.toThrow(/cannot digest/);
    }
    expect(await digestArguments({ amount: null })).not.toBe(await digestArguments({ amount: 0 }));
  });
});
