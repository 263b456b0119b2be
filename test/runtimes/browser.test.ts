// A browser-bundled mcpgen client in headless Chromium (Debian's chromium, driven by
// playwright-core) against an mcpgen HTTP server in Node on another origin: with CORS enabled
// it completes a 2025-11-25 session and a 2026-07-28 request; without CORS the browser blocks it.
import { access } from 'node:fs/promises';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundle, stageEntry } from '../package/bundles.js';
import { packedProject, ROOT } from '../package/packed.js';
import { recordRuntime } from './runtimes.js';

const FIXTURES = path.join(ROOT, 'test/runtimes/fixtures');
/** This file's folder in the consumer project (test files run in parallel, each stages its own copies). */
const FOLDER = 'runtimes-browser';
/** Debian's chromium package (CI installs it with apt). */
const CHROMIUM = '/usr/bin/chromium';

interface McpEndpoint {
  readonly url: string;
  close(): Promise<void>;
}

let browser: Browser | undefined;
let page: Page;
let pageServer: HttpServer | undefined;
let pageOrigin: string;
let startMcpServer: (pageOrigin: string, cors: boolean) => Promise<McpEndpoint>;

beforeAll(async () => {
  await access(CHROMIUM).catch(() => {
    throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does)`);
  });
  const { projectDir } = await packedProject();
  for (const script of ['server.js', 'e2e-client.js', 'browser-server.js']) await stageEntry(projectDir, path.join(FIXTURES, script), FOLDER);
  const client = await bundle(await stageEntry(projectDir, path.join(FIXTURES, 'browser-client.js'), FOLDER), 'browser', { format: 'iife' });
  ({ startMcpServer } = (await import(pathToFileURL(path.join(projectDir, FOLDER, 'browser-server.js')).href)) as { startMcpServer: typeof startMcpServer });

  // The page and its script come from a server of their own, so the MCP endpoint is another origin.
  pageServer = createServer((request, response) => {
    if (request.url === '/client.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(client.code);
    } else {
      response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>mcpgen</title><script src="/client.js"></script>');
    }
  });
  await new Promise<void>((resolve) => pageServer!.listen(0, '127.0.0.1', resolve));
  pageOrigin = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}`;

  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  page = await browser.newPage();
  await page.goto(`${pageOrigin}/`);
  await page.waitForFunction(() => typeof (globalThis as { runE2e?: unknown }).runE2e === 'function');
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => (pageServer === undefined ? resolve(undefined) : pageServer.close(resolve)));
});

/** Runs the e2e client in the page for one era; resolves with its result or the error it threw. */
function runInPage(url: string, protocolVersion: string): Promise<{ ok: true; result: unknown } | { ok: false; error: string }> {
  return page.evaluate(async ([endpoint, version]) => {
    try {
      return { ok: true as const, result: await (globalThis as unknown as { runE2e(url: string, version: string): Promise<unknown> }).runE2e(endpoint, version) };
    } catch (error) {
      return { ok: false as const, error: String(error) };
    }
  }, [url, protocolVersion] as const);
}

describe('headless Chromium, mcpgen HTTP server with CORS on another origin', () => {
  let endpoint: McpEndpoint;
  beforeAll(async () => {
    endpoint = await startMcpServer(pageOrigin, true);
    expect(new URL(endpoint.url).origin).not.toBe(pageOrigin);
  });
  afterAll(async () => {
    await endpoint?.close();
  });

  it('runs a 2025-11-25 session', async () => {
    expect(await runInPage(endpoint.url, '2025-11-25')).toEqual({
      ok: true,
      result: { protocolVersion: '2025-11-25', era: 'stateful', tools: 1, sum: '5', session: true },
    });
    await recordRuntime('chromium', { browser: `chromium ${browser!.version()}`, http: ['2025-11-25'], cors: true });
  }, 60_000);

  // A 2026-07-28 request carries Mcp-Method / Mcp-Name (and Mcp-Param-*) headers, which the
  // preflight must allow for the browser to send it.
  it('runs a 2026-07-28 request', async () => {
    expect(await runInPage(endpoint.url, '2026-07-28')).toEqual({
      ok: true,
      result: { protocolVersion: '2026-07-28', era: 'stateless', tools: 1, sum: '5', session: false },
    });
  }, 60_000);
});

describe('headless Chromium, mcpgen HTTP server without CORS', () => {
  it('is blocked by the browser', async () => {
    const endpoint = await startMcpServer(pageOrigin, false);
    try {
      const outcome = await runInPage(endpoint.url, '2025-11-25');
      expect(outcome.ok).toBe(false);
      expect(outcome.ok === false && outcome.error).toMatch(/Failed to fetch/);
    } finally {
      await endpoint.close();
    }
  }, 60_000);
});
