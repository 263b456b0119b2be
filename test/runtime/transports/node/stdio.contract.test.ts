// The transport contract over stdio framing: the server's StdioServerTransport and a client
// end of the same line framing, cross-wired through in-process streams.
import { PassThrough } from 'node:stream';
import { StdioServerTransport } from '../../../../runtime/node.js';
import { transportContract } from '../contract.case.js';

/** Two line-framed ends: what one writes, the other reads. */
function stdioPair(): { clientEnd: StdioServerTransport; serverEnd: StdioServerTransport; toServer: PassThrough; fromServer: PassThrough } {
  const toServer = new PassThrough();
  const fromServer = new PassThrough();
  return {
    clientEnd: new StdioServerTransport({ input: fromServer, output: toServer }),
    serverEnd: new StdioServerTransport({ input: toServer, output: fromServer }),
    toServer,
    fromServer,
  };
}

transportContract('stdio', {
  async connect(client, makeServer) {
    const { clientEnd, serverEnd, toServer, fromServer } = stdioPair();
    const server = makeServer();
    const serverClosed = new Promise<void>((resolve) => {
      server.onclose = resolve;
    });
    await server.connect(serverEnd);
    await client.connect(clientEnd);
    // A client process that closes ends its output, which is the server's EOF.
    const originalClose = clientEnd.close.bind(clientEnd);
    clientEnd.close = async () => {
      toServer.end();
      await originalClose();
    };
    return {
      serverClosed,
      cleanup: async () => {
        await server.close();
        fromServer.destroy();
      },
    };
  },
  async injectInvalidJson(makeServer) {
    const { serverEnd, toServer, fromServer } = stdioPair();
    const server = makeServer();
    await server.connect(serverEnd);
    const answer = new Promise<string>((resolve) => fromServer.once('data', (chunk: Buffer) => resolve(chunk.toString('utf8'))));
    toServer.write('{"jsonrpc": "2.0", "id": 1, "method": \n');
    const code = (JSON.parse((await answer).split('\n')[0]!) as { error: { code: number } }).error.code;
    await server.close();
    return code;
  },
});
