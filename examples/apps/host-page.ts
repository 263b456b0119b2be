/**
 * The host page's script: it connects to the greeter over Streamable HTTP (another origin, with
 * CORS), plays the model by calling `greet` once, and renders the tool's app through a sandbox
 * proxy on a third origin, relaying the View's calls to the server. serve.ts bundles it.
 */
// #region host
import { Client, StreamableHttpClientTransport } from '../../runtime/index.js';
import { AppHost, appResourceUri, appsHostExtension, renderApp } from '../../runtime/features/apps/index.js';
import type { CallToolResult, ReadResourceResult } from '../../generated/2025-11-25/index.js';

// Without a sandbox proxy (serve.ts leaves it out for `/?direct`), renderApp uses a srcdoc frame.
const config = JSON.parse(document.querySelector('#config')!.textContent!) as { mcpUrl: string; sandboxUrl?: string };
const client = new Client({ name: 'demo-host', version: '1.0.0' }, { extensions: [appsHostExtension()] });
await client.connect(new StreamableHttpClientTransport(new URL(config.mcpUrl)));

const tool = (await client.listAll('tools/list')).find((entry) => appResourceUri(entry) !== undefined)!;
const resource = (await client.request('resources/read', { uri: appResourceUri(tool)! })) as ReadResourceResult;
const container = document.querySelector('#app')!;
const host = new AppHost({
  client,
  hostInfo: { name: 'demo-host', version: '1.0.0' },
  hostContext: { theme: 'light', displayMode: 'inline', toolInfo: { tool } },
  sizeChanged: ({ height }) => {
    if (height !== undefined) app.iframe.style.height = `${height + 16}px`;
  },
});
const app = await renderApp({ host, container, resource, sandboxUrl: config.sandboxUrl });
await host.initialized;

// The model's call of the tool: the View shows its input and its result.
const args = { name: 'World' };
await host.sendToolInput(args);
await host.sendToolResult((await client.callTool({ name: tool.name, arguments: args })) as CallToolResult);
// #endregion host
document.body.dataset.state = 'ready';
