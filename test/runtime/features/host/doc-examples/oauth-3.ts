// Copied from the @example 3 of runtime/features/host/oauth.ts by examples.test.ts; do not edit.
import { ConnectionManager, NodeOAuth } from '../../../../../runtime/features/host/index.js';

const oauth = new NodeOAuth({ clientName: 'my-host' });
const { manager } = ConnectionManager.fromConfig({ cwd: process.cwd() }, { oauth: oauth.factory });
const statuses = await manager.connectAll();
for (const [name, status] of Object.entries(statuses)) {
  if (status.state === 'needs-auth') {
    await manager.login(name); // opens the browser, waits for the redirect, stores the tokens
    await manager.connect(name);
  }
}
await manager.close();
export {};
