// Copied from the @example 2 of runtime/features/host/form-elicitation.ts by examples.test.ts; do not edit.
import { choicesOf } from '../../../../../runtime/features/host/index.js';

choicesOf({ type: 'string', oneOf: [{ const: 'red', title: 'Red' }, { const: 'blue', title: 'Blue' }] }); // ['red', 'blue']
export {};
