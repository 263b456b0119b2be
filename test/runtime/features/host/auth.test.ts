/**
 * OAuth in the host layer, end to end over real HTTP on 127.0.0.1: an mcpgen server behind the
 * bearer guard, the test authorization server (real DCR, PKCE, redirects, refresh), `mcpgen
 * login` through the CLI entry with a "browser" that follows the authorization URL, tokens in a
 * temporary config directory, and the manager using them silently afterwards.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authInfoOf, type StoredTokens } from '../../../../runtime/features/auth/index.js';
import { createMcpHttpHandler } from '../../../../runtime/transports/http/handler.js';
import { McpServer } from '../../../../runtime/features/mcp-server/mcp-server.js';
import { toNodeHandler } from '../../../../runtime/transports/node/http.js';
import { runCli } from '../../../../runtime/features/host/cli-run.js';
import { parseServerEntry, type ConfigDiagnostic, type RemoteServerConfig } from '../../../../runtime/features/host/config.js';
import { ConnectionManager } from '../../../../runtime/features/host/manager.js';
import { NodeOAuth } from '../../../../runtime/features/host/oauth.js';
import { startAuthorizationServer, type TestAuthorizationServer } from '../auth/fixtures/authorization-server.js';

const scratch = realpathSync(mkdtempSync(path.join(tmpdir(), 'mcpgen-host-auth-')));
const project = path.join(scratch, 'project');
const xdg = path.join(scratch, 'xdg');
// Nothing may touch the real home: both variables point into the scratch directory.
// MCPGEN_APPROVE: the test's own project file is used without asking.
const env: Record<string, string | undefined> = { PATH: process.env.PATH, HOME: path.join(scratch, 'home'), XDG_CONFIG_HOME: xdg, MCPGEN_APPROVE: '1' };

let as: TestAuthorizationServer;
let http: HttpServer;
let closeHandler: () => Promise<void>;
let url: string;
/** Authorization URLs the "browser" was asked to open. */
const opened: string[] = [];

/** The user's browser: follows the authorization URL; the fixture consents at once and redirects to the loopback receiver. */
async function browser(target: string): Promise<void> {
  opened.push(target);
  await (await fetch(target)).text();
}

beforeAll(async () => {
  as = await startAuthorizationServer();
  http = createServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  url = `${base}/mcp`;
  const mcp = new McpServer({ name: 'protected-notes', version: '2.0.0' });
  mcp.registerTool('whoami', { description: 'Who the token belongs to' }, (_args, context) => ({
    content: [{ type: 'text', text: JSON.stringify({ client: authInfoOf(context)?.clientId, scopes: authInfoOf(context)?.scopes }) }],
  }));
  const handler = createMcpHttpHandler({
    server: () => mcp.createServer(),
    path: '/mcp',
    auth: { verifier: as.verifier, resource: url, authorizationServers: [as.issuer], requiredScopes: ['mcp:read'] },
  });
  http.on('request', toNodeHandler(handler));
  closeHandler = () => handler.close();
  mkdirSync(project, { recursive: true });
  writeFileSync(path.join(project, '.mcp.json'), JSON.stringify({
    mcpServers: {
      notes: { type: 'http', url, oauth: { scopes: ['mcp:read'] } },
      plain: { type: 'http', url },
    },
  }));
});

afterAll(async () => {
  await closeHandler();
  http.closeAllConnections();
  await new Promise<void>((resolve) => http.close(() => resolve()));
  await as.close();
  rmSync(scratch, { recursive: true, force: true });
});

interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

async function cli(args: readonly string[], onStderr?: (text: string) => void): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: {
      write: (text: string) => {
        stderr += text;
        onStderr?.(text);
      },
    },
    env,
    cwd: project,
    openBrowser: browser,
  });
  return { code, stdout, stderr };
}

function tokenFile(): string {
  return new NodeOAuth({ env }).fileOf({ type: 'http', url });
}

function readStore(): Record<string, unknown> {
  return JSON.parse(readFileSync(tokenFile(), 'utf8')) as Record<string, unknown>;
}

function editTokens(change: (stored: StoredTokens) => StoredTokens): void {
  const values = readStore();
  values[`tokens:${url}`] = change(values[`tokens:${url}`] as StoredTokens);
  writeFileSync(tokenFile(), JSON.stringify(values));
}

describe('the oauth setting of .mcp.json', () => {
  const parse = (raw: unknown, vars: Record<string, string> = {}) => {
    const diagnostics: ConfigDiagnostic[] = [];
    const config = parseServerEntry('api', raw, { scope: 'project', file: '/p/.mcp.json' }, '$.mcpServers.api', vars, diagnostics);
    return { config, diagnostics };
  };

  it('reads client id, expanded secret, scopes, metadata URL and redirect port', () => {
    const { config, diagnostics } = parse({
      url: 'https://mcp.example.com/mcp',
      oauth: { clientId: 'host-${TEAM}', clientSecret: '${API_SECRET}', scopes: ['files:read', 'files:write'], clientMetadataUrl: 'https://host.example.com/client.json', redirectPort: 8765 },
    }, { TEAM: 'blue', API_SECRET: 's3cret' });
    expect(diagnostics).toEqual([]);
    expect((config as RemoteServerConfig).oauth).toEqual({
      clientId: 'host-blue',
      clientSecret: 's3cret',
      scopes: ['files:read', 'files:write'],
      clientMetadataUrl: 'https://host.example.com/client.json',
      redirectPort: 8765,
    });
    expect(parse({ url: 'https://mcp.example.com/mcp', oauth: {} }).config).toMatchObject({ type: 'http', oauth: {} });
  });

  it('names the file, the server and the JSON path of each problem', () => {
    const bad = parse({
      url: 'https://mcp.example.com/mcp',
      oauth: { clientSecret: 'x', scopes: ['ok', 'two words', 3], clientMetadataUrl: 'http://host.example.com/c.json', redirectPort: 70_000, scope: 'typo' },
    });
    expect(bad.config).toBeUndefined();
    expect(bad.diagnostics.map(({ severity, path: at, file, server }) => ({ severity, at, file, server }))).toEqual(expect.arrayContaining([
      { severity: 'warning', at: '$.mcpServers.api.oauth.scope', file: '/p/.mcp.json', server: 'api' },
      { severity: 'error', at: '$.mcpServers.api.oauth.clientSecret', file: '/p/.mcp.json', server: 'api' },
      { severity: 'error', at: '$.mcpServers.api.oauth.scopes[1]', file: '/p/.mcp.json', server: 'api' },
      { severity: 'error', at: '$.mcpServers.api.oauth.scopes[2]', file: '/p/.mcp.json', server: 'api' },
      { severity: 'error', at: '$.mcpServers.api.oauth.clientMetadataUrl', file: '/p/.mcp.json', server: 'api' },
      { severity: 'error', at: '$.mcpServers.api.oauth.redirectPort', file: '/p/.mcp.json', server: 'api' },
    ]));
    expect(bad.diagnostics).toHaveLength(6);
    expect(parse({ command: 'x', oauth: {} }).diagnostics).toEqual([expect.objectContaining({ path: '$.mcpServers.api.oauth', message: 'only remote servers (http, sse) use OAuth' })]);
    expect(parse({ url: 'https://mcp.example.com/mcp', oauth: 'yes' }).diagnostics).toEqual([expect.objectContaining({ path: '$.mcpServers.api.oauth', severity: 'error' })]);
    const unset = parse({ url: 'https://mcp.example.com/mcp', oauth: { clientId: 'id', clientSecret: '${NOPE}' } });
    expect((unset.config as RemoteServerConfig).oauth).toEqual({ clientId: 'id' });
    expect(unset.diagnostics).toEqual([expect.objectContaining({ severity: 'warning', message: expect.stringContaining('NOPE is not set') })]);
  });
});

describe('a pre-registered client of .mcp.json', () => {
  it('sends its secret only to an issuer that oauth.issuer lists, by default one at the server origin', async () => {
    const oauth = new NodeOAuth({ directory: path.join(scratch, 'pre-registered'), openBrowser: browser, loginTimeoutMs: 5_000 });
    const secret: RemoteServerConfig = { type: 'http', url, oauth: { clientId: 'pre', clientSecret: 's3cret' } };
    const tokenRequests = as.log.tokenRequests.length;
    // The test authorization server runs at another origin than the MCP server: not allowed by default.
    await expect(oauth.login('notes', secret)).rejects.toThrow(/not an issuer the notes oauth credentials are for \(notes oauth\.issuer: not configured/);
    expect(as.log.tokenRequests).toHaveLength(tokenRequests);
    expect(opened.filter((target) => target.includes('client_id=pre'))).toEqual([]);

    const provider = (entry: RemoteServerConfig) => oauth.providerFor('notes', entry);
    expect(() => provider(secret).clientInformation!(as.issuer)).toThrow(/refusing to send them there/);
    const listed: RemoteServerConfig = { ...secret, oauth: { ...secret.oauth, issuer: [as.issuer] } };
    expect(provider(listed).clientInformation!(as.issuer)).toEqual({ client_id: 'pre', client_secret: 's3cret' });
    expect(() => provider(listed).clientInformation!('https://evil.example')).toThrow(/refusing to send them there/);
    // A client id without a secret reveals nothing, so it goes wherever the metadata says unless a list is given.
    expect(provider({ type: 'http', url, oauth: { clientId: 'public' } }).clientInformation!(as.issuer)).toEqual({ client_id: 'public' });
  });

  it('reads oauth.issuer as one https issuer or a list, and reports anything else', () => {
    const parse = (raw: unknown) => {
      const diagnostics: ConfigDiagnostic[] = [];
      const config = parseServerEntry('api', raw, { scope: 'project', file: '/p/.mcp.json' }, '$.mcpServers.api', {}, diagnostics);
      return { config, diagnostics };
    };
    const one = parse({ url: 'https://mcp.example.com/mcp', oauth: { clientId: 'a', issuer: 'https://login.example.com' } });
    expect((one.config as RemoteServerConfig).oauth?.issuer).toEqual(['https://login.example.com']);
    const bad = parse({ url: 'https://mcp.example.com/mcp', oauth: { clientId: 'a', issuer: ['http://login.example.com', 3] } });
    expect(bad.config).toBeUndefined();
    expect(bad.diagnostics.map((problem) => problem.path)).toEqual(['$.mcpServers.api.oauth.issuer[0]', '$.mcpServers.api.oauth.issuer[1]']);
  });
});

describe('mcpgen login, the stored tokens, and logout', () => {
  it('runs end to end through the CLI and the manager', async () => {
    // Before any login: needs-auth with the way out, no browser, and nothing registered at the authorization server.
    const before = await cli(['tools', 'notes']);
    expect(before.code).toBe(3);
    expect(before.stderr).toBe('mcpgen: notes: needs-auth: authorization required: run `mcpgen login notes`\n');
    expect(opened).toEqual([]);
    expect(as.log.registrations).toBe(0);

    const login = await cli(['login', 'notes']);
    expect(login.stderr).toContain('Opening a browser to authorize notes');
    expect(login.code).toBe(0);
    expect(opened).toHaveLength(1);
    expect(login.stdout).toMatch(new RegExp(`^Authorized notes \\(${url.replace(/[.]/g, '\\.')}\\)\n`));
    expect(login.stdout).toMatch(/server {16}protected-notes 2\.0\.0\n/);
    expect(login.stdout).toContain(`authorization server  ${as.issuer}\n`);
    expect(login.stdout).toContain('client id             client-1\n');
    expect(login.stdout).toContain('scope                 mcp:read offline_access\n');
    expect(login.stdout).toContain('(renewed automatically)');
    expect(login.stdout).toContain(`Tokens saved in ${tokenFile()}\n`);
    expect(tokenFile().startsWith(path.join(xdg, 'mcpgen', 'oauth') + path.sep)).toBe(true);
    expect(statSync(tokenFile()).mode & 0o777).toBe(0o600);
    // The PKCE verifier of the finished authorization never reached the disk.
    expect(Object.keys(readStore()).sort()).toEqual([`client:${as.issuer}`, 'login:redirect-port', `tokens:${url}`]);
    expect(as.log.authorizations).toEqual([{ scope: 'mcp:read offline_access', resource: url, clientId: 'client-1' }]);

    // The other commands use the tokens without asking.
    const tools = await cli(['tools', 'notes']);
    expect(tools).toMatchObject({ code: 0, stderr: '' });
    expect(tools.stdout).toMatch(/notes\s+whoami\s+Who the token belongs to/);
    const whoami = await cli(['call', 'notes', 'whoami']);
    expect(JSON.parse(whoami.stdout)).toEqual({ client: 'client-1', scopes: ['mcp:read', 'offline_access'] });
    expect(opened).toHaveLength(1);

    // `plain` names the same server without an oauth setting: the CLI's OAuth covers it too.
    const servers = await cli(['servers', '--json']);
    expect((JSON.parse(servers.stdout) as { name: string; state: string }[]).map(({ name, state }) => [name, state])).toEqual([['notes', 'connected'], ['plain', 'connected']]);

    // The manager with its default OAuth: stored tokens for entries with an oauth setting, HTTP 401 → needs-auth for the others.
    const { manager } = ConnectionManager.fromConfig({ cwd: project, env, approveAll: true });
    try {
      const statuses = await manager.connectAll();
      expect(statuses.notes).toMatchObject({ state: 'connected', serverInfo: { name: 'protected-notes' } });
      // A stateless-era server the process already knows connects without a request, so the 401 may come with the first one.
      if (statuses.plain?.state === 'connected') await manager.tools('plain').catch(() => undefined);
      await expect.poll(() => manager.status('plain')).toMatchObject({ state: 'needs-auth', reason: expect.stringContaining('HTTP 401') });
    } finally {
      await manager.close();
    }

    // An access token the server no longer accepts is refreshed on the 401; one that is known to
    // have expired is refreshed before it is sent. Neither opens the browser.
    const refreshes = () => as.log.tokenRequests.filter((request) => request.grantType === 'refresh_token').length;
    editTokens(({ expiresAt: _expiresAt, ...stored }) => ({ ...stored, tokens: { ...stored.tokens, access_token: as.mint(url, ['mcp:read'], -10) } }));
    expect(await cli(['tools', 'notes'])).toMatchObject({ code: 0, stderr: '' });
    expect(refreshes()).toBe(1);
    editTokens((stored) => ({ ...stored, expiresAt: Date.now() - 1_000 }));
    const silent = new ConnectionManager({ notes: { type: 'http', url } }, { oauth: new NodeOAuth({ env }), reconnect: false });
    try {
      expect((await silent.connectAll()).notes?.state).toBe('connected');
      expect((await silent.tools('notes')).map((tool) => tool.name)).toEqual(['mcp__notes__whoami']);
      expect(refreshes()).toBe(2);
      expect(opened).toHaveLength(1);
      expect(as.log.authorizations).toHaveLength(1);

      // Refresh refused and the token expired: the user has to log in again, and connects say so.
      as.revokeRefreshTokens();
      editTokens((stored) => ({ ...stored, expiresAt: Date.now() - 1_000 }));
    } finally {
      await silent.close();
    }
    const revoked = new ConnectionManager({ notes: { type: 'http', url } }, { oauth: new NodeOAuth({ env }), reconnect: false });
    try {
      // (The process knows the server's era, so the connect itself may send nothing; the first request then finds out.)
      if ((await revoked.connectAll()).notes?.state === 'connected') await expect(revoked.tools('notes')).rejects.toThrow();
      expect(revoked.status('notes')).toMatchObject({ state: 'needs-auth', reason: 'authorization required: run `mcpgen login notes`' });
      expect(opened).toHaveLength(1);
      expect(as.log.registrations).toBe(1);
    } finally {
      await revoked.close();
    }

    // --no-browser prints the URL instead; the user opens it. The loopback port of the first
    // login is reused, so the client registered then still matches.
    const again = await cli(['login', 'notes', '--no-browser'], (text) => {
      const shown = /^ {2}(http\S+)$/m.exec(text)?.[1];
      if (shown !== undefined) void fetch(shown).then((response) => response.text());
    });
    expect(again.stderr).toContain('Open this URL in a browser to authorize notes:');
    expect(again.code).toBe(0);
    expect(opened).toHaveLength(1);
    expect(as.log.registrations).toBe(1);
    expect(as.log.authorizations).toHaveLength(2);

    const logout = await cli(['logout', 'notes']);
    expect(logout).toMatchObject({ code: 0, stdout: `Forgot the tokens of notes (${url}).\n` });
    expect(Object.keys(readStore())).not.toContain(`tokens:${url}`);
    expect(await cli(['tools', 'notes'])).toMatchObject({ code: 3, stderr: 'mcpgen: notes: needs-auth: authorization required: run `mcpgen login notes`\n' });
    expect(await cli(['logout', 'notes'])).toMatchObject({ code: 0, stdout: 'notes had no stored tokens.\n' });
    expect(readdirSync(path.join(xdg, 'mcpgen', 'oauth'))).toEqual([path.basename(tokenFile())]);
  }, 20_000);

  it('asks for the configured scopes together with the challenged one, through NodeOAuth.login', async () => {
    const oauth = new NodeOAuth({ directory: path.join(scratch, 'library'), openBrowser: browser, loginTimeoutMs: 5_000 });
    const entry: RemoteServerConfig = { type: 'http', url, oauth: { scopes: ['mcp:write'] } };
    const result = await oauth.login('notes', entry);
    expect(result).toMatchObject({ authorized: true, issuer: as.issuer, scope: 'mcp:write mcp:read offline_access', refreshable: true, serverInfo: { name: 'protected-notes' } });
    expect(as.log.authorizations.at(-1)?.scope).toBe('mcp:write mcp:read offline_access');
    expect(await oauth.tokens(entry)).toMatchObject({ issuer: as.issuer, requestedScope: 'mcp:write mcp:read offline_access' });
    expect(await oauth.logout(entry)).toBe(true);
    expect(await oauth.tokens(entry)).toBeUndefined();
  });

  it('refuses login for stdio servers and unknown names (exit 2), and reports an unreachable server (exit 3)', async () => {
    const stdio = await cli(['--stdio', 'node -e 0', 'login']);
    expect(stdio).toMatchObject({ code: 2, stderr: 'mcpgen: stdio is a stdio server; only remote servers use OAuth\n' });
    expect(await cli(['login'])).toMatchObject({ code: 2, stderr: 'mcpgen: login needs a server name\n' });
    expect(await cli(['logout', 'nope'])).toMatchObject({ code: 2, stderr: expect.stringContaining('no server named nope is configured') });
    const unreachable = await cli(['--url', 'http://127.0.0.1:9/mcp', 'login', '--timeout', '3000']);
    expect(unreachable).toMatchObject({ code: 3, stderr: expect.stringMatching(/^mcpgen: login to url failed: /) });
  });
});
