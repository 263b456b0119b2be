import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig, userConfigPath } from '../../../../runtime/features/host/config-loader.js';
import { expandVariables } from '../../../../runtime/features/host/expand.js';
import { parseServerEntry, type ConfigDiagnostic } from '../../../../runtime/features/host/config.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'mcpgen-host-config-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let counter = 0;
/** A fresh tree: `files` maps paths relative to its root to JSON values (or raw text). */
function tree(files: Record<string, unknown>): string {
  const root = path.join(scratch, `t${counter++}`);
  for (const [relative, content] of Object.entries(files)) {
    const file = path.join(root, relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  }
  mkdirSync(root, { recursive: true });
  return root;
}

const stdio = (tag: string) => ({ command: 'node', args: [tag] });

describe('expandVariables', () => {
  it('expands ${VAR} and ${VAR:-default}, listing unset variables once', () => {
    const env = { HOME: '/home/u', EMPTY: '' };
    expect(expandVariables('${HOME}/x', env)).toEqual({ value: '/home/u/x', missing: [] });
    expect(expandVariables('${NOPE:-fallback}-${EMPTY:-was-empty}', env)).toEqual({ value: 'fallback-was-empty', missing: [] });
    expect(expandVariables('a${NOPE}b${NOPE}c${ALSO}', env)).toEqual({ value: 'abc', missing: ['NOPE', 'ALSO'] });
    // Only well-formed references are expanded; `$HOME` and `${1X}` stay as written.
    expect(expandVariables('$HOME ${1X} ${HOME:-d:-e}', env)).toEqual({ value: '$HOME ${1X} /home/u', missing: [] });
    expect(expandVariables('${URL:-http://h:1/p}', {})).toEqual({ value: 'http://h:1/p', missing: [] });
  });
});

describe('loadConfig', () => {
  it('applies precedence programmatic < user < project (closer wins) < local', () => {
    const root = tree({
      'xdg/mcpgen/mcp.json': { mcpServers: { a: stdio('user'), b: stdio('user'), c: stdio('user'), u: stdio('user') } },
      'repo/.mcp.json': { mcpServers: { b: stdio('outer'), c: stdio('outer'), d: stdio('outer'), o: stdio('outer') } },
      'repo/pkg/.mcp.json': { mcpServers: { c: stdio('inner'), d: stdio('inner') } },
      'repo/.mcp.local.json': { mcpServers: { d: stdio('local') } },
      'repo/.git/HEAD': '',
      'repo/pkg/deep/.keep': '',
    });
    const config = loadConfig({
      cwd: path.join(root, 'repo/pkg/deep'),
      env: { XDG_CONFIG_HOME: path.join(root, 'xdg') },
      approveAll: true,
      servers: { a: stdio('code'), p: stdio('code') },
    });
    // A project entry replacing a user entry is never silent, even approved.
    const userFile = path.join(root, 'xdg/mcpgen/mcp.json');
    expect(config.diagnostics).toEqual(['b', 'c'].map((server) => ({
      severity: 'warning',
      file: path.join(root, 'repo/.mcp.json'),
      server,
      path: `$.mcpServers.${server}`,
      message: `approved, so it replaces the user entry of the same name in ${userFile}`,
    })));
    const origin = Object.fromEntries(config.servers.map((server) => [server.name, [server.scope, server.config.type === 'stdio' ? server.config.args?.[0] : '']]));
    expect(origin).toEqual({
      a: ['user', 'user'],
      b: ['project', 'outer'],
      c: ['project', 'inner'],
      d: ['local', 'local'],
      o: ['project', 'outer'],
      p: ['programmatic', 'code'],
      u: ['user', 'user'],
    });
    const files = config.files.map((file) => [path.relative(root, file.file), file.scope]);
    expect(files).toEqual([
      ['xdg/mcpgen/mcp.json', 'user'],
      ['repo/.mcp.json', 'project'],
      ['repo/pkg/.mcp.json', 'project'],
      ['repo/.mcp.local.json', 'local'],
    ]);
  });

  it('finds the user file under XDG_CONFIG_HOME, else under HOME/.config', () => {
    expect(userConfigPath({ XDG_CONFIG_HOME: '/x/cfg', HOME: '/h' })).toBe(path.join('/x/cfg', 'mcpgen', 'mcp.json'));
    expect(userConfigPath({ HOME: '/h' })).toBe(path.join('/h', '.config', 'mcpgen', 'mcp.json'));
    // A relative XDG_CONFIG_HOME is invalid per the XDG spec and ignored.
    expect(userConfigPath({ XDG_CONFIG_HOME: 'rel', HOME: '/h' })).toBe(path.join('/h', '.config', 'mcpgen', 'mcp.json'));
    const root = tree({ 'home/.config/mcpgen/mcp.json': { mcpServers: { fromHome: stdio('h') } } });
    const config = loadConfig({ cwd: root, env: { HOME: path.join(root, 'home') }, projectFiles: false });
    expect(config.servers.map((server) => server.name)).toEqual(['fromHome']);
  });

  it('expands variables in command, args, env, cwd, url and headers; unset ones are warnings naming the server', () => {
    const root = tree({
      '.mcp.json': {
        mcpServers: {
          local: { command: '${BIN_DIR}/server', args: ['--token=${TOKEN}', '${MODE:-fast}'], env: { KEY: '${TOKEN}', MISSING: '${NOT_SET}' }, cwd: '${SUB:-sub}' },
          remote: { type: 'http', url: '${BASE:-http://127.0.0.1:9}/mcp', headers: { Authorization: 'Bearer ${TOKEN}', 'X-Other': '${ALSO_NOT_SET}' } },
          fine: { url: 'https://example.com/sse', type: 'sse' },
        },
      },
    });
    const config = loadConfig({ cwd: root, env: { BIN_DIR: '/opt/bin', TOKEN: 's3cret' }, userFile: false, approveAll: true });
    const byName = Object.fromEntries(config.servers.map((server) => [server.name, server.config]));
    expect(byName.local).toEqual({ type: 'stdio', command: '/opt/bin/server', args: ['--token=s3cret', 'fast'], env: { KEY: 's3cret', MISSING: '' }, cwd: path.join(root, 'sub') });
    expect(byName.remote).toEqual({ type: 'http', url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer s3cret', 'X-Other': '' } });
    expect(byName.fine).toEqual({ type: 'sse', url: 'https://example.com/sse' });
    const file = path.join(root, '.mcp.json');
    expect(config.diagnostics).toEqual([
      { severity: 'warning', file, server: 'local', path: '$.mcpServers.local', message: 'environment variable NOT_SET is not set (it expands to an empty string)' },
      { severity: 'warning', file, server: 'remote', path: '$.mcpServers.remote', message: 'environment variable ALSO_NOT_SET is not set (it expands to an empty string)' },
    ]);
  });

  it('reports malformed files and entries with file, server and JSON path, and still loads the rest', () => {
    const root = tree({
      'xdg/mcpgen/mcp.json': '{ "mcpServers": { "x": ',
      'repo/.mcp.json': {
        mcpServers: {
          good: stdio('ok'),
          noTarget: { args: [] },
          badArgs: { command: 'node', args: ['ok', 3] },
          badType: { type: 'grpc', url: 'ws://x' },
          badUrl: { url: 'ftp://example.com' },
          badEnv: { command: 'node', env: { A: 1 } },
          'odd name': 'not an object',
          badTimeout: { command: 'node', connectTimeoutMs: -5 },
          shadowed: { command: 'node', args: 'nope' },
        },
      },
      'repo/.mcp.local.json': '[1, 2]',
      'repo/sub/.mcp.json': { mcpServers: [] },
      'repo/.git/HEAD': '',
    });
    const config = loadConfig({
      cwd: path.join(root, 'repo/sub'),
      env: { XDG_CONFIG_HOME: path.join(root, 'xdg') },
      approveAll: true,
      servers: { shadowed: stdio('code'), alsoGood: stdio('code') },
    });
    expect(config.servers.map((server) => server.name)).toEqual(['alsoGood', 'good']);
    const rel = (file: string | undefined) => (file === undefined ? undefined : path.relative(root, file));
    const seen = config.diagnostics.map((problem) => [rel(problem.file), problem.server, problem.path, problem.message]);
    expect(seen).toEqual([
      ['xdg/mcpgen/mcp.json', undefined, '$', 'not valid JSON at line 1, column 24: unexpected end of the file'],
      ['repo/.mcp.json', 'noTarget', '$.mcpServers.noTarget', 'needs either "command" (a stdio server) or "url" (a remote server)'],
      ['repo/.mcp.json', 'badArgs', '$.mcpServers.badArgs.args[1]', 'must be a string, not number 3'],
      ['repo/.mcp.json', 'badType', '$.mcpServers.badType.type', 'unknown server type "grpc" (expected stdio, http, sse or ws)'],
      ['repo/.mcp.json', 'badUrl', '$.mcpServers.badUrl.url', 'must be an http(s) URL, not "ftp://example.com"'],
      ['repo/.mcp.json', 'badEnv', '$.mcpServers.badEnv.env.A', 'must be a string, not number 1'],
      ['repo/.mcp.json', 'odd name', '$.mcpServers["odd name"]', 'a server entry must be an object, not the string "not an object"'],
      ['repo/.mcp.json', 'badTimeout', '$.mcpServers.badTimeout.connectTimeoutMs', 'must be a positive number of milliseconds, not number -5'],
      ['repo/.mcp.json', 'shadowed', '$.mcpServers.shadowed.args', 'must be an array of strings, not the string "nope"'],
      ['repo/sub/.mcp.json', undefined, '$.mcpServers', 'must be an object mapping names to servers, not an array'],
      ['repo/.mcp.local.json', undefined, '$', 'must be an object with "mcpServers", not an array'],
    ]);
    expect(config.diagnostics.every((problem) => problem.severity === 'error')).toBe(true);
    // A malformed entry shadows the lower-scope one of the same name instead of silently using it.
    expect([...config.rejected.keys()].sort()).toEqual(['badArgs', 'badEnv', 'badTimeout', 'badType', 'badUrl', 'noTarget', 'odd name', 'shadowed']);
    expect(config.rejected.get('shadowed')?.path).toBe('$.mcpServers.shadowed.args');
  });

  it('reads --config style extra files over the walk, and reports a missing one', () => {
    const root = tree({ '.mcp.json': { mcpServers: { a: stdio('project') } }, 'extra.json': { mcpServers: { a: stdio('extra') } } });
    const config = loadConfig({ cwd: root, env: {}, userFile: false, extraFiles: ['extra.json', 'missing.json'], approveAll: true });
    expect(config.servers.map((server) => [server.name, server.config.type === 'stdio' && server.config.args?.[0]])).toEqual([['a', 'extra']]);
    expect(config.diagnostics).toEqual([expect.objectContaining({ severity: 'error', file: path.join(root, 'missing.json'), path: '$', message: expect.stringMatching(/^cannot read the file: ENOENT/) })]);
  });

  it('keeps an auth hook on programmatic remote entries only', () => {
    const auth = { headers: () => ({ authorization: 'Bearer t' }) };
    const config = loadConfig({ cwd: scratch, env: {}, userFile: false, projectFiles: false, servers: { api: { url: 'https://api.example/mcp', auth } } });
    const server = config.servers[0]!;
    expect(server.config.type === 'http' && server.config.auth).toBe(auth);
  });
});

describe('ws entries', () => {
  const parse = (entry: unknown, env: Record<string, string> = {}) => {
    const diagnostics: ConfigDiagnostic[] = [];
    return { config: parseServerEntry('sock', entry, { scope: 'project', file: '/p/.mcp.json' }, '$.mcpServers.sock', env, diagnostics), diagnostics };
  };

  it('reads type ws (and websocket) with a ws: or wss: URL and expanded headers, and infers ws from the URL', () => {
    expect(parse({ type: 'ws', url: 'ws://127.0.0.1:${PORT}/mcp', headers: { authorization: 'Bearer ${TOKEN}' } }, { PORT: '8080', TOKEN: 't' })).toEqual({
      config: { type: 'ws', url: 'ws://127.0.0.1:8080/mcp', headers: { authorization: 'Bearer t' } },
      diagnostics: [],
    });
    expect(parse({ type: 'websocket', url: 'wss://mcp.example/ws' }).config).toEqual({ type: 'ws', url: 'wss://mcp.example/ws' });
    expect(parse({ url: 'wss://mcp.example/ws' }).config).toEqual({ type: 'ws', url: 'wss://mcp.example/ws' });
    expect(parse({ url: 'https://mcp.example/mcp' }).config).toEqual({ type: 'http', url: 'https://mcp.example/mcp' });
  });

  it('refuses an http URL for ws, a ws URL for http, oauth on ws, and names ws among the types', () => {
    expect(parse({ type: 'ws', url: 'http://mcp.example/mcp' }).diagnostics).toEqual([expect.objectContaining({ path: '$.mcpServers.sock.url', message: 'must be a ws(s) URL, not "http://mcp.example/mcp"' })]);
    expect(parse({ type: 'http', url: 'ws://mcp.example/mcp' }).diagnostics).toEqual([expect.objectContaining({ path: '$.mcpServers.sock.url', message: 'must be an http(s) URL, not "ws://mcp.example/mcp"' })]);
    expect(parse({ type: 'ws', url: 'ws://mcp.example/mcp', oauth: {} }).diagnostics).toEqual([expect.objectContaining({ path: '$.mcpServers.sock.oauth', message: expect.stringContaining('ws servers are authorized with headers') })]);
    expect(parse({ type: 'ws' }).diagnostics).toEqual([expect.objectContaining({ path: '$.mcpServers.sock.url', message: 'a ws server needs a url' })]);
    expect(parse({ type: 'socket', url: 'ws://x' }).diagnostics).toEqual([expect.objectContaining({ message: 'unknown server type "socket" (expected stdio, http, sse or ws)' })]);
  });
});
