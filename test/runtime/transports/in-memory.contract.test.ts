// The transport contract over the in-memory pair, in both delivery modes.
import { createLinkedPair } from '../../../runtime/index.js';
import { transportContract } from './contract.case.js';

for (const serialize of [false, true]) {
  transportContract(`in-memory pair${serialize ? ' (serialized)' : ''}`, {
    async connect(client, makeServer) {
      const [clientEnd, serverEnd] = createLinkedPair({ serialize });
      const server = makeServer();
      const serverClosed = new Promise<void>((resolve) => {
        server.onclose = resolve;
      });
      await server.connect(serverEnd);
      await client.connect(clientEnd);
      return { serverClosed, cleanup: () => server.close() };
    },
  });
}
