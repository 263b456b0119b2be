// Copied from the @example 1 of runtime/features/host/manager.ts by examples.test.ts; do not edit.
import { ConnectionManager } from '../../../../../runtime/features/host/index.js';

const { manager, config } = ConnectionManager.fromConfig({ cwd: process.cwd() });
for (const problem of config.diagnostics) console.warn(`${problem.file ?? '(code)'} ${problem.path}: ${problem.message}`);
await manager.connectAll();
for (const tool of await manager.tools()) console.log(tool.name, tool.tool.description);
const result = await manager.callTool('mcp__everything__echo', { message: 'hi' });
await manager.close();
export {};
