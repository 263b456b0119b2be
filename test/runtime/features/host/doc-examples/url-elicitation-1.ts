// Copied from the @example 1 of runtime/features/host/url-elicitation.ts by examples.test.ts; do not edit.
import { Client } from '../../../../../runtime/index.js';
import { withUrlElicitation } from '../../../../../runtime/features/host/index.js';

declare const client: Client;
const result = await withUrlElicitation(
  () => client.callTool({ name: 'checkout', arguments: {} }),
  { server: 'shop', method: 'tools/call', target: 'checkout' },
  ({ elicitations }) => {
    for (const item of elicitations) console.log(`${item.message}: ${item.url}`);
    return true; // the user says they are done
  },
);
export {};
