// Copied from the @example 3 of runtime/features/host/form-elicitation.ts by examples.test.ts; do not edit.
import { parseFormAnswer } from '../../../../../runtime/features/host/index.js';

parseFormAnswer({ name: 'age', required: true, schema: { type: 'integer', minimum: 0 } }, '42'); // { ok: true, value: 42 }
export {};
