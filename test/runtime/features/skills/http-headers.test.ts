// The skills methods over a real HTTP server (the Node adapter, raw fetch) in the stateless era:
// the transport spec asks `Mcp-Name` of tools/call, resources/read and prompts/get only, so
// skills/get and resources/directory/read are served without it, and refused when it disagrees.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createMcpNodeServer, type McpNodeServer } from '../../../../runtime/node.js';
import { SkillsExtension } from '../../../../runtime/features/skills/index.js';
import { POST_HEADERS } from '../../transports/http/server-support.js';
import { pdfSkill, skillsServer } from './fixtures.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
};

let node: McpNodeServer;
let url: URL;

beforeAll(async () => {
  const skills = new SkillsExtension();
  await skills.catalog.add(pdfSkill);
  node = createMcpNodeServer({ server: () => skillsServer(skills), path: '/mcp' });
  url = await node.listen();
});

afterAll(async () => {
  await node.close();
});

async function post(method: string, params: Record<string, unknown>, name?: string): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = { ...POST_HEADERS, 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...(name === undefined ? {} : { 'mcp-name': name }) };
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: META } }) });
  return { status: response.status, body: await response.json() };
}

it('serves skills/get and resources/directory/read without Mcp-Name, with the cache hint', async () => {
  const got = await post('skills/get', { uri: 'skill://pdf-processing/SKILL.md' });
  expect(got.status).toBe(200);
  expect(got.body.result).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'private', skill: { uri: 'skill://pdf-processing/SKILL.md' } });
  const listed = await post('resources/directory/read', { uri: 'skill://pdf-processing' });
  expect(listed.body.result.resources.map((resource: { name: string }) => resource.name)).toEqual(['pdf-processing', 'assets', 'references']);
});

it('refuses skills/get whose Mcp-Name disagrees with the body, and resources/read without Mcp-Name', async () => {
  const wrong = await post('skills/get', { uri: 'skill://pdf-processing/SKILL.md' }, 'skill://other/SKILL.md');
  expect(wrong.status).toBe(400);
  expect(wrong.body.error.message).toMatch(/Header mismatch: the Mcp-Name header "skill:\/\/other\/SKILL.md" does not match/);
  const read = await post('resources/read', { uri: 'skill://pdf-processing/SKILL.md' });
  expect(read.status).toBe(400);
  expect(read.body.error.message).toBe('Header mismatch: the Mcp-Name header is required for this method');
  const named = await post('resources/read', { uri: 'skill://pdf-processing/SKILL.md' }, 'skill://pdf-processing/SKILL.md');
  expect(named.body.result.contents[0].mimeType).toBe('text/markdown');
});
