import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, McpServer, ProtocolError } from '../../../../runtime/index.js';
import { SkillCatalog, SkillsClient, SkillsExtension, SKILLS_EXTENSION_ID } from '../../../../runtime/features/skills/index.js';
import { createMcpNodeServer, type McpNodeServer } from '../../../../runtime/node.js';
import { postStateless } from '../../transports/http/server-support.js';
import { connectedPair, FORMS_MD, info, pdfSkill, PDF_SKILL_MD, refundsSkill, skillsServer } from './fixtures.js';

/** Sends a request the Client's types do not name (the extension's methods once SkillsClient registered them). */
const raw = (client: Client) => (client.request as (method: string, params: unknown) => Promise<unknown>).bind(client);

const digest = (text: string | Uint8Array): string => `sha256:${createHash('sha256').update(text).digest('hex')}`;

async function extensionWith(...definitions: Parameters<SkillCatalog['add']>[0][]): Promise<SkillsExtension> {
  const skills = new SkillsExtension({ pageSize: 2 });
  for (const definition of definitions) await skills.catalog.add(definition);
  return skills;
}

describe.each(['2025-11-25', '2026-07-28'])('the skills extension on a low-level Server, protocol %s', (protocolVersion) => {
  it('declares the extension with directoryRead and lists every skill with digests and sizes', async () => {
    const skills = await extensionWith(pdfSkill, refundsSkill);
    const { client } = await connectedPair(() => skillsServer(skills), protocolVersion);
    expect(new SkillsClient(client).serverSettings).toEqual({ directoryRead: true });
    const reader = new SkillsClient(client);
    const page = (await raw(client)('skills/list', {})) as { skills: Array<{ uri: string }>; nextCursor?: string; ttlMs?: number };
    expect(page.skills.map((skill) => skill.uri)).toEqual(['skill://acme/billing/refunds/SKILL.md', 'skill://pdf-processing/SKILL.md']);
    // Stateless-era results carry the cache hint; stateful ones do not.
    expect(page.ttlMs).toBe(protocolVersion === '2026-07-28' ? 0 : undefined);
    const listed = await reader.list();
    const pdf = listed.find((skill) => skill.frontmatter.name === 'pdf-processing')!;
    expect(pdf.frontmatter).toEqual({ name: 'pdf-processing', description: 'Extract, fill, and assemble PDF documents', metadata: { version: '2.1' } });
    expect(pdf.resources).toEqual([
      { uri: 'skill://pdf-processing/SKILL.md', digest: digest(PDF_SKILL_MD), size: Buffer.byteLength(PDF_SKILL_MD) },
      { uri: 'skill://pdf-processing/assets/logo.png', digest: digest(pdfSkill.files['assets/logo.png'] as Uint8Array), size: 6 },
      { uri: 'skill://pdf-processing/references/FORMS.md', digest: digest(FORMS_MD), size: Buffer.byteLength(FORMS_MD) },
    ].sort((a, b) => (a.uri < b.uri ? -1 : 1)));
    await client.close();
  });

  it('pages skills/list with a cursor and answers skills/get, unknown URIs with -32602', async () => {
    const third = { path: 'zeta', files: { 'SKILL.md': '---\nname: zeta\ndescription: Last in order\n---\n' } };
    const skills = await extensionWith(pdfSkill, refundsSkill, third);
    const { client } = await connectedPair(() => skillsServer(skills), protocolVersion);
    const reader = new SkillsClient(client);
    const send = raw(client) as (m: string, p: unknown) => Promise<{ skills: Array<{ uri: string }>; nextCursor?: string }>;
    const first = await send('skills/list', {});
    expect(first.skills).toHaveLength(2);
    const second = await send('skills/list', { cursor: first.nextCursor });
    expect(second.skills.map((skill) => skill.uri)).toEqual(['skill://zeta/SKILL.md']);
    expect(second.nextCursor).toBeUndefined();
    expect((await reader.get('skill://zeta/SKILL.md')).frontmatter.description).toBe('Last in order');
    const unknown = await reader.get('skill://nope/SKILL.md').catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(ProtocolError);
    expect((unknown as ProtocolError).code).toBe(-32602);
    // A supporting file is no skill.
    expect(((await reader.get('skill://pdf-processing/references/FORMS.md').catch((error: unknown) => error)) as ProtocolError).code).toBe(-32602);
    await client.close();
    // Inbound params are checked: a missing uri is -32602 naming the field (the client's own check is off).
    const unchecked = (await connectedPair(() => skillsServer(skills), protocolVersion, { validateOutgoing: false })).client;
    new SkillsClient(unchecked);
    const missing = (await raw(unchecked)('skills/get', { uri: 7 }).catch((error: unknown) => error)) as ProtocolError;
    expect(missing).toBeInstanceOf(ProtocolError);
    expect(missing.code).toBe(-32602);
    expect(missing.message).toContain('/uri');
    await unchecked.close();
  });

  it('serves skill files through resources/read and resources/list, SKILL.md named from its frontmatter', async () => {
    const skills = await extensionWith(pdfSkill);
    const { client } = await connectedPair(() => skillsServer(skills), protocolVersion);
    const read = await client.readResource({ uri: 'skill://pdf-processing/SKILL.md' });
    expect(read.contents).toEqual([{ uri: 'skill://pdf-processing/SKILL.md', mimeType: 'text/markdown', text: PDF_SKILL_MD }]);
    const logo = await client.readResource({ uri: 'skill://pdf-processing/assets/logo.png' });
    expect(logo.contents[0]).toMatchObject({ mimeType: 'image/png', blob: Buffer.from(pdfSkill.files['assets/logo.png'] as Uint8Array).toString('base64') });
    const listed = await client.listAll('resources/list', undefined);
    expect(listed.find((resource) => resource.uri.endsWith('/SKILL.md'))).toEqual({
      uri: 'skill://pdf-processing/SKILL.md', name: 'pdf-processing', description: 'Extract, fill, and assemble PDF documents', mimeType: 'text/markdown', size: Buffer.byteLength(PDF_SKILL_MD),
    });
    expect(listed).toHaveLength(3);
    const missing = (await client.readResource({ uri: 'skill://pdf-processing/nope.md' }).catch((error: unknown) => error)) as ProtocolError;
    expect(missing.code).toBe(-32602);
    await client.close();
  });

  it('reads directories: direct children, subdirectories as inode/directory, -32602 for a file', async () => {
    const skills = await extensionWith(pdfSkill, refundsSkill);
    const { client } = await connectedPair(() => skillsServer(skills), protocolVersion);
    const reader = new SkillsClient(client);
    expect(await reader.readDirectory('skill://pdf-processing')).toEqual([
      { uri: 'skill://pdf-processing/SKILL.md', name: 'pdf-processing', description: 'Extract, fill, and assemble PDF documents', mimeType: 'text/markdown', size: Buffer.byteLength(PDF_SKILL_MD) },
      { uri: 'skill://pdf-processing/assets', name: 'assets', mimeType: 'inode/directory' },
      { uri: 'skill://pdf-processing/references', name: 'references', mimeType: 'inode/directory' },
    ]);
    expect((await reader.readDirectory('skill://acme')).map((entry) => entry.uri)).toEqual(['skill://acme/billing']);
    const notDirectory = (await reader.readDirectory('skill://pdf-processing/SKILL.md').catch((error: unknown) => error)) as ProtocolError;
    expect(notDirectory.code).toBe(-32602);
    await client.close();
  });
});

describe('list changes', () => {
  it('a low-level Server announces catalog changes to its session', async () => {
    const skills = await extensionWith(pdfSkill);
    const { client } = await connectedPair(() => skillsServer(skills), '2025-11-25');
    const changed = new Promise<void>((resolve) => client.setNotificationHandler('notifications/resources/list_changed', () => resolve()));
    await skills.catalog.add(refundsSkill);
    await changed;
    expect((await new SkillsClient(client).list()).map((skill) => skill.frontmatter.name)).toEqual(['refunds', 'pdf-processing']);
    // Removing it takes it out of skills/list and resources/read at once.
    expect(skills.catalog.remove('acme/billing/refunds')).toBe(true);
    expect(((await client.readResource({ uri: 'skill://acme/billing/refunds/SKILL.md' }).catch((error: unknown) => error)) as ProtocolError).code).toBe(-32602);
    await client.close();
  });

  it('adding the same content again is no change', async () => {
    const catalog = new SkillCatalog();
    let changes = 0;
    catalog.onChange(() => changes++);
    await catalog.add(pdfSkill);
    await catalog.add({ ...pdfSkill, files: { ...pdfSkill.files } });
    expect(changes).toBe(1);
    await catalog.add({ ...pdfSkill, files: { ...pdfSkill.files, 'references/FORMS.md': 'changed' } });
    expect(changes).toBe(2);
  });
});

describe.each(['2025-11-25', '2026-07-28'])('the skills extension on an McpServer, protocol %s', (protocolVersion) => {
  it('publishes skill files as McpServer resources beside its own, kept in step with the catalog', async () => {
    const skills = await extensionWith(pdfSkill);
    const mcp = new McpServer(info, { extensions: [skills] });
    mcp.registerResource('readme', 'file:///README.md', { mimeType: 'text/markdown' }, (uri) => ({ contents: [{ uri, text: '# Hello' }] }));
    const unpublish = skills.publishOn(mcp);
    const { client } = await connectedPair(() => mcp, protocolVersion);
    expect(new SkillsClient(client).serverSettings).toEqual({ directoryRead: true });
    const uris = async () => (await client.listAll('resources/list', undefined)).map((resource) => resource.uri).sort();
    expect(await uris()).toEqual(['file:///README.md', 'skill://pdf-processing/SKILL.md', 'skill://pdf-processing/assets/logo.png', 'skill://pdf-processing/references/FORMS.md']);
    const loaded = await new SkillsClient(client).load('skill://pdf-processing/SKILL.md');
    expect(loaded.body).toBe('\n# PDF processing\n\nSee references/FORMS.md.\n');
    expect((await loaded.readFile('references/FORMS.md')).text).toBe(FORMS_MD);
    await skills.catalog.add(refundsSkill);
    expect(await uris()).toContain('skill://acme/billing/refunds/SKILL.md');
    unpublish();
    expect(await uris()).toEqual(['file:///README.md']);
    await client.close();
  });
});

// The transport spec asks `Mcp-Name` of tools/call, resources/read and prompts/get only, so
// skills/get and resources/directory/read are served without it, and refused when it disagrees.
const STATELESS_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
};

describe('skills methods over node:http in the stateless era, raw fetch', () => {
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

  const post = (method: string, params: Record<string, unknown>, name?: string) => postStateless(url, STATELESS_META, method, params, name);

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
  });
