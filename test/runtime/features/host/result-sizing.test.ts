/**
 * Result sizing in the host, through the connection manager and the CLI against a server on a
 * real WebSocket: a 5 MB text and a large image, under both strategies, checked for exactly
 * what the model gets; small results pass untouched; the persist folder's modes and caps.
 */
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpServer } from '../../../../runtime/index.js';
import { ConnectionManager, type ConnectionManagerOptions } from '../../../../runtime/features/host/manager.js';
import { runCli } from '../../../../runtime/features/host/cli-run.js';
import { ResultSizer } from '../../../../runtime/features/host/result-sizing.js';
import { createMcpWebSocketServer, type McpWebSocketServer } from '../../../../runtime/ws-node.js';

const TEXT = '0123456789'.repeat(500_000);
const IMAGE = 'A'.repeat(4_000_000);
const scratch = realpathSync(mkdtempSync(path.join(tmpdir(), 'mcpgen-host-sizing-')));
let endpoint: McpWebSocketServer;
let url: string;

beforeAll(async () => {
  const mcp = new McpServer({ name: 'sizing', version: '1.0.0' });
  mcp.registerTool('small', {}, () => ({ content: [{ type: 'text', text: 'small' }] }));
  mcp.registerTool('text', {}, () => ({ content: [{ type: 'text', text: TEXT }] }));
  mcp.registerTool('image', {}, () => ({ content: [{ type: 'text', text: 'chart of the quarter' }, { type: 'image', data: IMAGE, mimeType: 'image/png' }] }));
  mcp.registerTool('json', {}, () => ({ content: [{ type: 'resource', resource: { uri: 'mem://rows', mimeType: 'application/json', text: `[${'1,'.repeat(100_000)}1]` } }] }));
  endpoint = createMcpWebSocketServer({ server: () => mcp.createServer(), path: '/mcp' });
  url = `ws://127.0.0.1:${(await endpoint.listen(0, '127.0.0.1')).port}/mcp`;
});

afterAll(async () => {
  await endpoint.close();
  rmSync(scratch, { recursive: true, force: true });
});

let folders = 0;
const folder = () => path.join(scratch, `results-${folders++}`);

async function call(tool: string, options: ConnectionManagerOptions = {}): Promise<{ content: unknown[]; structuredContent?: unknown }> {
  const manager = new ConnectionManager({ s: { type: 'ws', url } }, { env: {}, ...options });
  try {
    await manager.connectAll();
    return (await manager.callTool({ server: 's', tool })) as { content: unknown[] };
  } finally {
    await manager.close();
  }
}

describe('result sizing: truncate', () => {
  it('passes a result within the budget through untouched', async () => {
    expect((await call('small')).content).toEqual([{ type: 'text', text: 'small' }]);
  });

  it('keeps the first 100 000 characters of a 5 MB text, with a notice saying how much was cut', async () => {
    const result = await call('text');
    expect(result.content).toEqual([
      { type: 'text', text: TEXT.slice(0, 100_000) },
      { type: 'text', text: '[Tool result over the host\'s budget: 5000000 characters against 100000. 4900000 of 5000000 characters of text were cut.]' },
    ]);
  });

  it('drops an image that does not fit, with a notice, keeping the text beside it', async () => {
    const result = await call('image', { resultSizing: { maxChars: 10_000 } });
    expect(result.content).toEqual([
      { type: 'text', text: 'chart of the quarter' },
      { type: 'text', text: '[Tool result over the host\'s budget: 4000020 characters against 10000. An image (image/png, 3000000 bytes) was left out.]' },
    ]);
  });

  it('returns what the server sent with resultSizing false', async () => {
    expect((await call('text', { resultSizing: false })).content).toEqual([{ type: 'text', text: TEXT }]);
  });
});

describe('result sizing: persist', () => {
  it('writes a 5 MB text to a 0600 file in a 0700 folder and gives the model its path, size and type', async () => {
    const directory = folder();
    const result = await call('text', { resultSizing: { strategy: 'persist', directory } });
    const files = readdirSync(directory);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^\d{13}-[0-9a-f]{8}-s-text\.txt$/);
    const file = path.join(directory, files[0]!);
    expect(readFileSync(file, 'utf8')).toBe(TEXT);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(directory).mode & 0o777).toBe(0o700);
    expect(result.content).toEqual([
      { type: 'text', text: `[The full text (5000000 characters, 5000000 bytes, text/plain) is saved at ${file}; read that file for all of it. It begins:]\n${TEXT.slice(0, 2_000)}\n[…]` },
      { type: 'resource_link', uri: `file://${file}`, name: files[0], mimeType: 'text/plain', size: 5_000_000 },
      { type: 'text', text: `[Tool result over the host's budget: 5000000 characters against 100000. A text of 5000000 characters was saved to ${file}.]` },
    ]);
  });

  it('never persists an image: it is dropped with a notice and no file is written', async () => {
    const directory = folder();
    const result = await call('image', { resultSizing: { strategy: 'persist', directory, maxChars: 10_000 } });
    expect(result.content).toEqual([
      { type: 'text', text: 'chart of the quarter' },
      { type: 'text', text: '[Tool result over the host\'s budget: 4000020 characters against 10000. An image (image/png, 3000000 bytes) was left out (images and audio are never written to files).]' },
    ]);
    expect(() => readdirSync(directory)).toThrow(/ENOENT/);
  });

  it('keeps the mime type of an embedded text resource in its file and pointer', async () => {
    const directory = folder();
    const result = await call('json', { resultSizing: { strategy: 'persist', directory, maxChars: 1_000, previewChars: 10 } });
    const [name] = readdirSync(directory);
    expect(name).toMatch(/-s-json\.json$/);
    expect(result.content[1]).toEqual({ type: 'resource_link', uri: `file://${path.join(directory, name!)}`, name, mimeType: 'application/json', size: 200_003 });
    expect((result.content[0] as { text: string }).text).toContain('(200003 characters, 200003 bytes, application/json)');
    expect((result.content[0] as { text: string }).text).toContain('It begins:]\n[1,1,1,1,1\n[…]');
  });

  it('keeps the folder within maxFiles (oldest out) and truncates a text larger than maxDirectoryBytes', async () => {
    const directory = folder();
    const sizer = new ResultSizer({ strategy: 'persist', directory, maxChars: 100, maxFiles: 2, maxDirectoryBytes: 1_200 });
    const origin = { server: 's', tool: 't' };
    const written: string[] = [];
    for (const index of [1, 2, 3]) {
      const result = await sizer.size({ content: [{ type: 'text', text: String(index).repeat(500) }] }, origin);
      written.push((result.content[1] as { name: string }).name);
    }
    expect(readdirSync(directory).sort()).toEqual(written.slice(1).sort());
    const tooLarge = await sizer.size({ content: [{ type: 'text', text: 'y'.repeat(2_000) }] }, origin);
    expect(tooLarge.content).toEqual([
      { type: 'text', text: 'y'.repeat(100) },
      { type: 'text', text: '[Tool result over the host\'s budget: 2000 characters against 100. A text of 2000 characters could not be saved (it is larger than the folder\'s 1200-byte cap) and was truncated; 1900 of 2000 characters of text were cut.]' },
    ]);
    expect(readdirSync(directory).sort()).toEqual(written.slice(1).sort());
    // A third file of 500 bytes would pass the byte cap (3 × 500 > 1200) even under a larger file cap.
    const bytesCapped = new ResultSizer({ strategy: 'persist', directory, maxChars: 100, maxFiles: 10, maxDirectoryBytes: 1_200 });
    await bytesCapped.size({ content: [{ type: 'text', text: '4'.repeat(500) }] }, origin);
    expect(readdirSync(directory)).toHaveLength(2);
    expect(readdirSync(directory)).not.toContain(written[1]);
  });
});

describe('result sizing in the CLI', () => {
  const cli = async (args: readonly string[]) => {
    let stdout = '';
    let stderr = '';
    const code = await runCli(args, { stdout: { write: (text: string) => (stdout += text) }, stderr: { write: (text: string) => (stderr += text) }, env: { HOME: path.join(scratch, 'home'), XDG_CACHE_HOME: path.join(scratch, 'cache') }, cwd: scratch });
    return { code, stdout, stderr };
  };

  it('truncates by default, persists with --result-strategy persist, and refuses a bad strategy', async () => {
    const truncated = await cli(['--url', url, '--max-result', '20', 'call', 'text']);
    expect(truncated).toMatchObject({ code: 0, stderr: '' });
    expect(truncated.stdout).toBe('01234567890123456789\n[Tool result over the host\'s budget: 5000000 characters against 20. 4999980 of 5000000 characters of text were cut.]\n');
    const persisted = await cli(['--url', url, '--result-strategy', 'persist', 'call', 'text']);
    expect(persisted).toMatchObject({ code: 0, stderr: '' });
    const directory = path.join(scratch, 'cache', 'mcpgen', 'tool-results');
    const [name] = readdirSync(directory);
    expect(persisted.stdout).toContain(`is saved at ${path.join(directory, name!)}; read that file for all of it.`);
    expect(readFileSync(path.join(directory, name!), 'utf8')).toBe(TEXT);
    const bad = await cli(['--url', url, '--result-strategy', 'zip', 'call', 'text']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--result-strategy is truncate or persist, not "zip"');
  });
});

