/**
 * Starts the example stdio server as a child process, lists and calls its tools, and prints
 * what came back. `make demo` runs it.
 */
import { fileURLToPath } from 'node:url';
import { Client } from '../runtime/index.js';
import { StdioClientTransport } from '../runtime/node/index.js';

const serverScript = fileURLToPath(new URL('./stdio-server.ts', import.meta.url));
const client = new Client({ name: 'mcpgen-demo-client', version: '0.1.0' });
await client.connect(new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', serverScript] }));
console.log(`connected to ${client.serverInfo?.name} ${client.serverInfo?.version} over protocol ${client.protocolVersion}`);

const tools = await client.listAll('tools/list');
console.log(`tools: ${tools.map((tool) => tool.name).join(', ')}`);
const echo = await client.callTool({ name: 'echo', arguments: { text: 'hello from mcpgen' } });
console.log(`echo -> ${JSON.stringify(echo.content)}`);
const sum = await client.callTool({ name: 'add', arguments: { a: 2, b: 40 } });
console.log(`add(2, 40) -> ${JSON.stringify(sum.content)}`);
const readme = await client.readResource({ uri: 'demo://readme' });
console.log(`resource demo://readme -> ${JSON.stringify(readme.contents)}`);
await client.close();
