/**
 * The MCP Apps demo on three origins: the greeter's MCP endpoint, the host page, and the sandbox
 * proxy that renders the View (all on 127.0.0.1, each on a port of its own, so each is an origin
 * of its own). The browser scripts are bundled from this folder with esbuild at start.
 *
 * Run it: `npx tsx examples/apps/serve.ts`, then open the printed host page URL.
 * test/runtime/features/apps/browser.test.ts drives it in headless Chromium.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { createMcpNodeServer } from '../../runtime/node.js';
import { createGreeter } from './greeter-server.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));

/** One browser script, bundled as an ES module for an inline `<script type="module">`. */
async function bundle(entry: string): Promise<string> {
  const result = await build({ entryPoints: [`${HERE}${entry}`], bundle: true, format: 'esm', platform: 'browser', target: 'es2022', minify: true, write: false, logLevel: 'silent' });
  return result.outputFiles[0]!.text.replace(/<\/script/gi, '<\\/script');
}

function page(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<{ server: Server; origin: string }> {
  const server = createServer(handler);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })));
}

const escapeJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/** What {@link startAppsDemo} started. */
export interface AppsDemo {
  readonly hostUrl: string;
  readonly sandboxOrigin: string;
  readonly mcpUrl: string;
  /** The names `greet` was called with, in order. */
  readonly calls: readonly string[];
  close(): Promise<void>;
}

export async function startAppsDemo(): Promise<AppsDemo> {
  const [view, host, sandbox] = await Promise.all([bundle('view.ts'), bundle('host-page.ts'), bundle('sandbox-page.ts')]);
  const calls: string[] = [];

  let hostOrigin = '';
  let mcpUrl = '';
  let sandboxUrl = '';
  const hostPage = await page((request, response) => {
    // `/?direct` renders the View without the sandbox proxy, in a srcdoc frame of the host page.
    const direct = new URL(request.url ?? '/', hostOrigin).searchParams.has('direct');
    const config = escapeJson(direct ? { mcpUrl } : { mcpUrl, sandboxUrl });
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><title>MCP Apps demo host</title><h1>Demo host</h1><div id="app"></div>
<script type="application/json" id="config">${config}</script><script type="module">${host}</script>`);
  });
  hostOrigin = hostPage.origin;
  const sandboxPage = await page((request, response) => {
    if (request.url !== '/sandbox.html') {
      response.writeHead(404).end();
      return;
    }
    // The proxy itself runs no code of the View's: its frame gets the View's CSP.
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; frame-src 'self' about: data:" });
    response.end(`<!doctype html><meta name="host-origin" content="${hostOrigin}"><style>html,body{margin:0;height:100%}</style><body><script type="module">${sandbox}</script></body>`);
  });
  const mcp = createGreeter(view, (name) => calls.push(name));
  const node = createMcpNodeServer({ server: () => mcp.createServer(), path: '/mcp', cors: { origins: [hostOrigin] } });
  mcpUrl = (await node.listen(0)).href;
  sandboxUrl = `${sandboxPage.origin}/sandbox.html`;

  const stop = (server: Server) => new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
  return {
    hostUrl: `${hostOrigin}/`,
    sandboxOrigin: sandboxPage.origin,
    mcpUrl,
    calls,
    close: async () => {
      await Promise.all([node.close(), stop(hostPage.server), stop(sandboxPage.server)]);
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const demo = await startAppsDemo();
  console.log(`host page: ${demo.hostUrl}\nsandbox:   ${demo.sandboxOrigin}\nMCP:       ${demo.mcpUrl}`);
}
