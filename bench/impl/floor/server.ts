// The floor's stdio server: newline-delimited JSON-RPC on stdin/stdout, nothing else.
import type { ServerSide } from '../../lib/types.js';
import { createFloorServer, LineSplitter, type FloorRequest } from './protocol.js';

export const serverSide: ServerSide = {
  async serveStdio(spec) {
    const answer = createFloorServer(spec);
    const splitter = new LineSplitter((line) => {
      const reply = answer(JSON.parse(line) as FloorRequest);
      if (reply !== undefined) process.stdout.write(`${JSON.stringify(reply)}\n`);
    });
    process.stdin.on('data', (chunk: Buffer) => splitter.push(chunk));
    process.stdin.on('end', () => process.exit(0));
  },
};
