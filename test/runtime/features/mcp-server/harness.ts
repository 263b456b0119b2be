import { Client, createLinkedPair, latestStatefulRevision, McpServer, type ClientOptions, type McpSession, type Stateful } from '../../../../runtime/index.js';

/** A connected client/session pair over the in-memory transport. */
export interface Connected {
  readonly client: Client<Stateful.ProtocolTypes>;
  readonly session: McpSession;
  /** Server→client notifications the client received, in order (method and params). */
  readonly notifications: Array<{ method: string; params: unknown }>;
}

/** Methods whose notifications the harness records. */
const RECORDED = [
  'notifications/tools/list_changed',
  'notifications/resources/list_changed',
  'notifications/prompts/list_changed',
  'notifications/resources/updated',
  'notifications/message',
  'notifications/progress',
] as const;

/** Connects a new Client to `mcp` over an in-memory pair (serialized like a real wire). */
export async function connect(mcp: McpServer, options: ClientOptions<Stateful.ProtocolTypes> = {}, record = true): Promise<Connected> {
  const [clientSide, serverSide] = createLinkedPair({ serialize: true });
  const session = await mcp.connect(serverSide);
  // These tests exercise sessions (list_changed, server→client requests): pin the stateful era.
  const client = new Client<Stateful.ProtocolTypes>({ name: 'test-client', version: '1.0.0' }, { protocolVersion: latestStatefulRevision, ...options });
  const notifications: Array<{ method: string; params: unknown }> = [];
  if (record) {
    for (const method of RECORDED) {
      if (method === 'notifications/progress') continue;
      client.setNotificationHandler(method, (params) => {
        notifications.push({ method, params });
      });
    }
  }
  await client.connect(clientSide);
  // The server marks the session initialized when notifications/initialized arrives.
  await until(() => session.isInitialized);
  return { client, session, notifications };
}

/** Resolves once `condition` holds, polling each macrotask; rejects after `ms`. */
export async function until(condition: () => boolean, ms = 2_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > ms) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

/** Lets queued macrotasks (timers of 0 ms, in-memory deliveries) run. */
export function settle(rounds = 3): Promise<void> {
  let chain = Promise.resolve();
  for (let i = 0; i < rounds; i++) chain = chain.then(() => new Promise((resolve) => setTimeout(resolve, 0)));
  return chain;
}

/** Text of the first content block of a tool result. */
export function textOf(result: { content: ReadonlyArray<{ type: string }> }): string {
  const first = result.content[0] as { type: string; text?: string } | undefined;
  if (first?.type !== 'text' || first.text === undefined) throw new Error(`no text content in ${JSON.stringify(result)}`);
  return first.text;
}
