/**
 * The README's HTTP client: calls the quickstart tool over Streamable HTTP at the URL given as
 * its argument. `make demo` starts the server with `--http` on a free port and runs this with
 * the URL it prints; it exits non-zero when an answer is not the expected one.
 */
import assert from 'node:assert/strict';
// #region client
import { Client, StreamableHttpClientTransport } from '../../runtime/index.js';

const url = process.argv[2] ?? 'http://127.0.0.1:3000/mcp'; // what `server.ts --http` prints
const client = new Client({ name: 'greeter-client', version: '1.0.0' });
await client.connect(new StreamableHttpClientTransport(url));

const result = await client.callTool({ name: 'greet', arguments: { name: 'Ada' } });
console.log(`${client.serverInfo?.name} over ${client.protocolVersion}:`, result.structuredContent);
// #endregion client

assert.equal(client.protocolVersion, '2026-07-28');
assert.deepEqual(result.structuredContent, { greeting: 'Hello, Ada!' });
// #region client
await client.close();
// #endregion client
