// Copied from the @example 1 of runtime/features/host/result-sizing.ts by examples.test.ts; do not edit.
import { ResultSizer } from '../../../../../runtime/features/host/index.js';

const sizer = new ResultSizer({ maxChars: 20_000, strategy: 'persist', directory: '/tmp/tool-results' });
const result = await sizer.size({ content: [{ type: 'text', text: 'x'.repeat(50_000) }] }, { server: 'db', tool: 'dump' });
// result.content: a notice with the file's path, size and type, and a resource_link to it.
export {};
