/**
 * The CLI's interactions for a server's authorization: `mcpgen login` and `mcpgen logout`
 * (a remote server's OAuth tokens), and the URL prompts of URL-mode elicitation.
 */
import { createInterface } from 'node:readline';
import { SdkError, messageOf } from '../../core/errors.js';
import { findHttpTransportError } from '../../transports/http/client-errors.js';
import { openInBrowser } from '../auth/node/loopback.js';
import { OAuthError } from '../auth/types.js';
import { EXIT, UsageError, type CliArgs } from './cli-args.js';
import type { ConnectionManager } from './manager.js';
import type { LoginResult } from './oauth.js';
import { terminalSafeJson } from './terminal-text.js';
import type { UrlElicitationPrompt } from './url-elicitation.js';

/** Where the CLI reads and writes; the real process by default, buffers in tests. */
export interface CliIo {
  readonly stdout: { write(text: string): unknown; readonly isTTY?: boolean | undefined };
  readonly stderr: { write(text: string): unknown; readonly isTTY?: boolean | undefined };
  readonly stdin?: NodeJS.ReadableStream & { readonly isTTY?: boolean | undefined };
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly cwd?: string;
  /** Opens an authorization URL for `login` (default: the platform's browser opener). */
  readonly openBrowser?: ((url: string) => void | Promise<void>) | undefined;
}

/** Writes `value` as indented JSON on stdout (`--json`). */
export function writeJson(io: CliIo, value: unknown): void {
  io.stdout.write(`${terminalSafeJson(JSON.stringify(value, null, 2))}\n`);
}

/** `mcpgen login <server>`: the OAuth flow in a browser, then what was stored. */
export async function login(manager: ConnectionManager, server: string, args: CliArgs, io: CliIo): Promise<number> {
  if (manager.connection(server).config.type === 'stdio') throw new UsageError(`${server} is a stdio server; only remote servers use OAuth`);
  const open = io.openBrowser ?? openInBrowser;
  const openBrowser = args.noBrowser
    ? (url: string) => void io.stderr.write(`Open this URL in a browser to authorize ${server}:\n\n  ${url}\n\nWaiting for the authorization server to redirect back…\n`)
    : async (url: string) => {
      io.stderr.write(`Opening a browser to authorize ${server}. If none opens, visit:\n  ${url}\n`);
      await open(url);
    };
  let result: LoginResult;
  try {
    result = await manager.login(server, { openBrowser, timeoutMs: args.connectTimeoutMs, clientInfo: { name: 'mcpgen-cli', version: '0.1.0' } });
  } catch (error) {
    const http = findHttpTransportError(error);
    const unreachable = http !== undefined && http.status === undefined && !(http.cause instanceof SdkError) && !(http.cause instanceof OAuthError);
    io.stderr.write(`mcpgen: login to ${server} failed: ${messageOf(http?.cause ?? error)}\n`);
    return unreachable ? EXIT.UNAVAILABLE : EXIT.FAILED;
  }
  if (args.json) {
    writeJson(io, result);
    return EXIT.OK;
  }
  if (!result.authorized) {
    io.stdout.write(`${server} (${result.url}) answered without asking for authorization; nothing was stored.\n`);
    return EXIT.OK;
  }
  const info = result.serverInfo === undefined ? undefined : `${result.serverInfo.name} ${result.serverInfo.version}`;
  const expires = result.expiresAt === undefined ? undefined : `${new Date(result.expiresAt).toISOString()}${result.refreshable ? ' (renewed automatically)' : ''}`;
  const rows = [
    ['server', info],
    ['authorization server', result.issuer],
    ['client id', result.clientId],
    ['scope', result.scope],
    ['access token expires', expires],
  ].filter((row): row is [string, string] => row[1] !== undefined && row[1] !== '');
  const width = Math.max(...rows.map(([label]) => label.length));
  io.stdout.write(`Authorized ${server} (${result.url})\n${rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}\n`).join('')}Tokens saved in ${result.file}\n`);
  return EXIT.OK;
}

/** `mcpgen logout <server>`: forgets the stored tokens. */
export async function logout(manager: ConnectionManager, server: string, args: CliArgs, io: CliIo): Promise<number> {
  const config = manager.connection(server).config;
  if (config.type === 'stdio') throw new UsageError(`${server} is a stdio server; only remote servers use OAuth`);
  const removed = await manager.logout(server);
  if (args.json) writeJson(io, { server, url: config.url, removed });
  else io.stdout.write(removed ? `Forgot the tokens of ${server} (${config.url}).\n` : `${server} had no stored tokens.\n`);
  return EXIT.OK;
}

/** Shows the URLs; on a terminal, waits for Enter (done) or "n" (cancel); otherwise cancels. */
export async function askUrl(io: CliIo, prompt: UrlElicitationPrompt): Promise<boolean> {
  const lines = prompt.elicitations.map((item) => `  ${item.message}\n  ${item.url}`).join('\n');
  io.stderr.write(`mcpgen: ${prompt.server} asks you to complete in a browser:\n${lines}\n`);
  const stdin = io.stdin;
  if (stdin === undefined || stdin.isTTY !== true) {
    io.stderr.write('mcpgen: not a terminal, so the request is cancelled\n');
    return false;
  }
  const reader = createInterface({ input: stdin, output: process.stderr });
  try {
    const answer = await new Promise<string>((resolve) => reader.question('Press Enter when done, or type n to cancel: ', resolve));
    return answer.trim().toLowerCase() !== 'n';
  } finally {
    reader.close();
  }
}
