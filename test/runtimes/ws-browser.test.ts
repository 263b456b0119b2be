// mcpgen's WebSocket client bundled for the browser (from the sources, with esbuild) in headless
// Chromium, against mcpgen's Node WebSocket endpoint on another origin: with the page's origin
// allowed it speaks both eras over the browser's own WebSocket; when only other origins are,
// the Origin check refuses the upgrade, which the browser shows as a failed connection.
import { access } from 'node:fs/promises';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { build } from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpServer } from '../../runtime/index.js';
import { createMcpWebSocketServer, type McpWebSocketServer } from '../../runtime/ws-node.js';

const CHROMIUM = '/usr/bin/chromium';
let browser: Browser | undefined;
let page: Page;
let pageServer: HttpServer | undefined;
let pageOrigin: string;
const endpoints: McpWebSocketServer[] = [];

async function endpoint(allowedOrigins: string[]): Promise<string> {
  const mcp = new McpServer({ name: 'ws-browser', version: '1.0.0' });
  mcp.registerTool('echo', { inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }, ({ text }, context) => ({
    content: [{ type: 'text', text: `${String(text)} over ${context.session.protocolVersion}` }],
  }));
  const server = createMcpWebSocketServer({ server: () => mcp.createServer(), path: '/mcp', allowedOrigins });
  endpoints.push(server);
  return `ws://127.0.0.1:${(await server.listen(0, '127.0.0.1')).port}/mcp`;
}

beforeAll(async () => {
  await access(CHROMIUM).catch(() => {
    throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does)`);
  });
  const bundled = await build({
    entryPoints: [path.join(import.meta.dirname, 'fixtures/ws-browser-client.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'silent',
  });
  const code = bundled.outputFiles[0]!.text;
  pageServer = createServer((request, response) => {
    if (request.url === '/client.js') response.writeHead(200, { 'content-type': 'text/javascript' }).end(code);
    else response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>mcpgen ws</title><script src="/client.js"></script>');
  });
  await new Promise<void>((resolve) => pageServer!.listen(0, '127.0.0.1', resolve));
  pageOrigin = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}`;
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  page = await browser.newPage();
  await page.goto(`${pageOrigin}/`);
  await page.waitForFunction(() => typeof (globalThis as { runWs?: unknown }).runWs === 'function');
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all(endpoints.map((server) => server.close()));
  await new Promise((resolve) => (pageServer === undefined ? resolve(undefined) : pageServer.close(resolve)));
});

const runWs = (url: string) => page.evaluate((target) => (globalThis as unknown as { runWs(url: string): Promise<unknown> }).runWs(target), url);

describe('WebSocket client in Chromium', () => {
  it('speaks both eras with the browser\'s WebSocket to an endpoint that allows the page\'s origin', async () => {
    const url = await endpoint([pageOrigin]);
    expect(await runWs(url)).toEqual({
      eras: [
        { era: 'stateless', protocolVersion: '2026-07-28', text: 'hi over 2026-07-28' },
        { era: 'stateful', protocolVersion: '2025-11-25', text: 'hi over 2025-11-25' },
      ],
    });
  });

  it('is refused by the Origin check of an endpoint that allows other origins only', async () => {
    const url = await endpoint(['https://app.example']);
    expect(await runWs(url)).toEqual({ error: 'TransportError', message: `WebSocket connection to ${url} failed (close code 1006)` });
  });
});
