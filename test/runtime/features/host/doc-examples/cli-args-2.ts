// Copied from the @example 2 of runtime/features/host/cli-args.ts by examples.test.ts; do not edit.
import { keyValueArguments } from '../../../../../runtime/features/host/index.js';

keyValueArguments(['zip=01234', 'count=3'], { properties: { zip: { type: 'string' } } }); // { zip: '01234', count: 3 }
export {};
