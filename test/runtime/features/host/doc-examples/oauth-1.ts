// Copied from the @example 1 of runtime/features/host/oauth.ts by examples.test.ts; do not edit.
import { ConnectionManager, LoginRequiredError } from '../../../../../runtime/features/host/index.js';

const { manager } = ConnectionManager.fromConfig();
await manager.connectAll();
const status = manager.status('notes');
if (status.state === 'needs-auth' && status.error instanceof LoginRequiredError) console.log(`Sign in first: ${status.reason}`);
export {};
