/**
 * The README's first client: starts the quickstart server as a child process, lists its tools
 * and calls one. `make demo` runs it; it exits non-zero when an answer is not the expected one.
 */
import assert from 'node:assert/strict';
// #region client
import { fileURLToPath } from 'node:url';
import { Client } from '../../runtime/index.js';
import { StdioClientTransport } from '../../runtime/node.js';

const server = fileURLToPath(new URL('./server.ts', import.meta.url));
const client = new Client({ name: 'greeter-client', version: '1.0.0' });
await client.connect(new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', server] }));

const tools = await client.listAll('tools/list');
const result = await client.callTool({ name: 'greet', arguments: { name: 'Ada' } });
console.log(`${client.serverInfo?.name} over ${client.protocolVersion}:`, result.structuredContent);
// #endregion client

assert.deepEqual(tools.map((tool) => tool.name), ['greet']);
assert.deepEqual(result.structuredContent, { greeting: 'Hello, Ada!' });
// #region client
await client.close();
// #endregion client
