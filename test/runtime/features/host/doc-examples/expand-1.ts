// Copied from the @example 1 of runtime/features/host/expand.ts by examples.test.ts; do not edit.
import { expandVariables } from '../../../../../runtime/features/host/index.js';

const { value, missing } = expandVariables('${API_URL:-http://localhost:3000}/mcp', process.env);
if (missing.length > 0) console.warn(`unset: ${missing.join(', ')}`);
export {};
