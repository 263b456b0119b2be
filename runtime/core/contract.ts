/**
 * The single place the runtime learns the generated-code contract from: every runtime module
 * imports contract types through this file.
 */
export type * from '../../generated/contract.js';
