// Copied from the @example 1 of runtime/features/host/form-elicitation.ts by examples.test.ts; do not edit.
import { formFields } from '../../../../../runtime/features/host/index.js';

formFields({ type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }); // [{ name: 'name', required: true, … }]
export {};
