/**
 * The single place the runtime learns the generated-code contract from. Every runtime module
 * imports contract types through this file, so repointing it at generated/contract.js is a
 * one-line change once the generator has produced that file.
 */
export type * from '../codegen/templates/contract.js';
