/**
 * An MCP server with one app (a greeting form), an app-only tool and a model-only tool, a host
 * Client connected to it in memory, and a MessageChannel for the View's connection.
 */
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { Client, McpServer } from '../../../../runtime/index.js';
import { createLinkedPair } from '../../../../runtime/core/in-memory.js';
import { appsHostExtension, registerApp, registerAppTool } from '../../../../runtime/features/apps/index.js';

export const FORM_HTML = '<!doctype html><title>Greeter</title><form><input name="name"><button>Greet</button></form><p id="out"></p>';

export interface Fixture {
  readonly mcp: McpServer;
  readonly client: Client;
  /** Names and arguments of every tools/call the server ran. */
  readonly calls: { name: string; args: unknown }[];
  readonly hostPort: MessagePort;
  readonly appPort: MessagePort;
  /** Settle when the `hang` tool started, and when its call was cancelled. */
  readonly hangs: Promise<void>;
  readonly hangAborted: Promise<void>;
  close(): Promise<void>;
}

export async function fixture(): Promise<Fixture> {
  const calls: { name: string; args: unknown }[] = [];
  let started!: () => void;
  let aborted!: () => void;
  const hangs = new Promise<void>((resolve) => (started = resolve));
  const hangAborted = new Promise<void>((resolve) => (aborted = resolve));
  const mcp = new McpServer({ name: 'greeter', version: '1.0.0' });
  registerApp(mcp, 'greet', {
    description: 'Greets someone',
    inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    resourceUri: 'ui://greeter/form',
    resource: { html: FORM_HTML, csp: { connectDomains: ['https://api.example.com'] } },
  }, ({ name }) => {
    calls.push({ name: 'greet', args: { name } });
    return { content: [{ type: 'text', text: `Hello, ${name}!` }], structuredContent: { greeting: `Hello, ${name}!` } };
  });
  registerAppTool(mcp, 'shout', { resourceUri: 'ui://greeter/form', visibility: ['app'], inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } }, ({ text }) => {
    calls.push({ name: 'shout', args: { text } });
    return { content: [{ type: 'text', text: text.toUpperCase() }] };
  });
  registerAppTool(mcp, 'erase', { resourceUri: 'ui://greeter/form', visibility: ['model'] }, () => {
    calls.push({ name: 'erase', args: {} });
    return { content: [{ type: 'text', text: 'erased' }] };
  });
  mcp.registerTool('plain', {}, () => ({ content: [{ type: 'text', text: 'plain' }] }));
  // Runs until its call is cancelled; `hangs` tells when it started, `aborted` when it saw the cancellation.
  mcp.registerTool('hang', {}, (_args, context) => {
    started();
    return new Promise<never>((_resolve, reject) => {
      context.signal.addEventListener('abort', () => {
        aborted();
        reject(new Error('cancelled'));
      });
    });
  });
  const [clientSide, serverSide] = createLinkedPair();
  await mcp.connect(serverSide);
  const client = new Client({ name: 'host', version: '1.0.0' }, { extensions: [appsHostExtension()] });
  await client.connect(clientSide);
  const { port1, port2 } = new MessageChannel();
  return {
    mcp,
    client,
    calls,
    hangs,
    hangAborted,
    hostPort: port1,
    appPort: port2,
    close: async () => {
      port1.close();
      port2.close();
      await client.close();
    },
  };
}

/** The next message `port` receives. */
export function nextMessage(port: MessagePort): Promise<any> {
  return new Promise((resolve) => port.once('message', resolve));
}
