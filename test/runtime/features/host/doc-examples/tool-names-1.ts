// Copied from the @example 1 of runtime/features/host/tool-names.ts by examples.test.ts; do not edit.
import { ToolNameMap } from '../../../../../runtime/features/host/index.js';

const names = new ToolNameMap([{ server: 'github', tool: 'create_issue' }, { server: 'my.db', tool: 'query' }]);
names.nameOf({ server: 'github', tool: 'create_issue' }); // 'mcp__github__create_issue'
names.resolve('mcp__github__create_issue'); // { server: 'github', tool: 'create_issue' }
export {};
