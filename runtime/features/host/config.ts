/**
 * The server entries of an `.mcp.json` file: their types, and the check that turns one raw
 * JSON entry into a typed, variable-expanded {@link ServerConfig} or a list of problems that
 * each name the JSON path at fault.
 */
import path from 'node:path';
import type { FetchLike, HeadersSource } from '../../transports/http/client-request.js';
import { expandVariables } from './expand.js';
import { closestKey } from './suggest.js';

/** Where a server entry came from, lowest precedence first. */
export type ConfigScope = 'programmatic' | 'user' | 'project' | 'local';

/** Scopes in precedence order: a later scope's entry replaces an earlier one of the same name. */
export const CONFIG_SCOPES: readonly ConfigScope[] = ['programmatic', 'user', 'project', 'local'];

/**
 * Credentials for a remote server, supplied in code (never read from a file). An OAuth provider
 * plugs in through `fetch` (which can attach tokens and refresh them on 401) or `headers`
 * (computed before each request). Without one, a server answering HTTP 401 gets the
 * `needs-auth` status.
 */
export interface HttpAuthHook {
  /** A fetch that authorizes each request; it receives the URL and the transport's RequestInit. */
  readonly fetch?: FetchLike | undefined;
  /** Headers added to every request, e.g. `() => ({ authorization: `Bearer ${token}` })`. */
  readonly headers?: HeadersSource | undefined;
}

/**
 * OAuth settings of a remote entry (`"oauth": {…}` in `.mcp.json`). Every member is optional:
 * `"oauth": {}` turns OAuth on with discovery and Dynamic Client Registration. Tokens come from
 * `mcpgen login <server>` (or `NodeOAuth.login`) and are refreshed silently afterwards.
 */
export interface OAuthServerConfig {
  /** A client id registered beforehand with the server's authorization server (`${VAR}` expanded). */
  readonly clientId?: string | undefined;
  /** That client's secret (`${VAR}` expanded; keep it out of the file). Needs `clientId`. */
  readonly clientSecret?: string | undefined;
  /** Scopes to request when the server's challenge names none (instead of everything it supports). */
  readonly scopes?: readonly string[] | undefined;
  /** The HTTPS URL of a Client ID Metadata Document, used as the client id where the authorization server accepts those. */
  readonly clientMetadataUrl?: string | undefined;
  /** A fixed port for the loopback redirect (`http://127.0.0.1:<port>/callback`), for clients registered with one. */
  readonly redirectPort?: number | undefined;
  /**
   * The authorization servers (issuer identifiers) `clientId` and `clientSecret` were registered
   * with. The server's metadata names the issuer, so whoever controls it could otherwise receive
   * the secret; without this list only an issuer at the server's own origin gets them.
   */
  readonly issuer?: readonly string[] | undefined;
}

/** The members an `oauth` object may have. */
const OAUTH_MEMBERS = new Set(['clientId', 'clientSecret', 'scopes', 'clientMetadataUrl', 'redirectPort', 'issuer']);

/** Settings every server entry may carry besides how to reach it. */
export interface CommonServerConfig {
  /** Connect timeout in milliseconds (over the manager's default and `MCP_TIMEOUT`). */
  readonly connectTimeoutMs?: number | undefined;
  /** Timeout of each request to this server, in milliseconds (over the manager's default). */
  readonly callTimeoutMs?: number | undefined;
  /** Leave the server out of `connectAll` and the tool list. */
  readonly disabled?: boolean | undefined;
}

/** A server started as a child process, spoken to over stdio. */
export interface StdioServerConfig extends CommonServerConfig {
  readonly type: 'stdio';
  readonly command: string;
  readonly args?: readonly string[] | undefined;
  /** Variables added to the child's (deliberately small) default environment. */
  readonly env?: Readonly<Record<string, string>> | undefined;
  /** Working directory; relative paths in a file are resolved against the file's directory. */
  readonly cwd?: string | undefined;
}

/**
 * A remote server: Streamable HTTP (`http`, falling back to HTTP+SSE), HTTP+SSE only (`sse`), or
 * WebSocket (`ws`, a `ws:`/`wss:` URL; authorized with `headers`, not `oauth`).
 */
export interface RemoteServerConfig extends CommonServerConfig {
  readonly type: 'http' | 'sse' | 'ws';
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** Credentials; see {@link HttpAuthHook}. Only programmatic entries can carry one. */
  readonly auth?: HttpAuthHook | undefined;
  /** OAuth for this server; see {@link OAuthServerConfig}. */
  readonly oauth?: OAuthServerConfig | undefined;
}

/** One server entry of the configuration. */
export type ServerConfig = StdioServerConfig | RemoteServerConfig;

/** A problem found while loading configuration. */
export interface ConfigDiagnostic {
  /** Errors drop the file or entry they concern; warnings leave it in place. */
  readonly severity: 'error' | 'warning';
  /** The file at fault; absent for programmatic entries. */
  readonly file?: string | undefined;
  /** The server entry at fault, when there is one. */
  readonly server?: string | undefined;
  /** A JSON path such as `$.mcpServers.db.args[2]`. */
  readonly path: string;
  readonly message: string;
}

/** Where one entry is being read from, for diagnostics and relative paths. */
export interface EntrySource {
  readonly scope: ConfigScope;
  readonly file?: string | undefined;
}

/** The members a server entry may have (`auth` only in code). */
const ENTRY_MEMBERS = ['type', 'command', 'args', 'env', 'cwd', 'url', 'headers', 'oauth', 'connectTimeoutMs', 'callTimeoutMs', 'disabled'];

/** Aliases accepted in `type`, mapped to the transport used. */
const TYPE_ALIASES: Readonly<Record<string, ServerConfig['type']>> = {
  stdio: 'stdio',
  http: 'http',
  'streamable-http': 'http',
  streamableHttp: 'http',
  sse: 'sse',
  ws: 'ws',
  websocket: 'ws',
};

/** A JSON path segment for a member name: `.name` when it is an identifier, `["…"]` otherwise. */
export function memberPath(base: string, name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? `${base}.${name}` : `${base}[${JSON.stringify(name)}]`;
}

/**
 * Checks one raw entry and expands `${VAR}` references in command, args, env, cwd, url,
 * headers and the `oauth` client id and secret. Returns the config, or undefined when the
 * entry has errors; every problem (errors, and warnings for unset variables) is appended to
 * `diagnostics`.
 *
 * @example
 * ```ts
 * import { parseServerEntry, type ConfigDiagnostic } from 'mcpgen/host';
 *
 * const problems: ConfigDiagnostic[] = [];
 * const config = parseServerEntry('db', { command: 'db-mcp', args: ['--dsn', '${DSN}'] }, { scope: 'programmatic' }, '$.db', process.env, problems);
 * ```
 */
export function parseServerEntry(
  name: string,
  raw: unknown,
  source: EntrySource,
  jsonPath: string,
  env: Readonly<Record<string, string | undefined>>,
  diagnostics: ConfigDiagnostic[],
): ServerConfig | undefined {
  const problems: ConfigDiagnostic[] = [];
  const report = (at: string, message: string, severity: 'error' | 'warning' = 'error') => {
    (severity === 'error' ? problems : diagnostics).push({ severity, file: source.file, server: name, path: at, message });
  };
  const missing = new Set<string>();
  const expand = (value: string): string => {
    const expansion = expandVariables(value, env);
    for (const variable of expansion.missing) missing.add(variable);
    return expansion.value;
  };

  if (name.trim() === '') report(jsonPath, 'a server name must not be empty');
  if (!isPlainObject(raw)) {
    report(jsonPath, `a server entry must be an object, not ${describe(raw)}`);
    diagnostics.push(...problems);
    return undefined;
  }
  const field = (key: string) => memberPath(jsonPath, key);
  const members = source.scope === 'programmatic' ? [...ENTRY_MEMBERS, 'auth'] : ENTRY_MEMBERS;
  for (const key of Object.keys(raw)) {
    if (!members.includes(key)) report(field(key), unknownKeyMessage(key, members), 'warning');
  }
  /** ` (environment variable X is not set)` when `text` refers to unset variables. */
  const unset = (text: string): string => {
    const names = expandVariables(text, env).missing;
    if (names.length === 0) return '';
    return names.length === 1 ? ` (environment variable ${names[0]} is not set)` : ` (environment variables ${names.join(', ')} are not set)`;
  };
  const string = (key: string): string | undefined => {
    const value = raw[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'string') return void report(field(key), `must be a string, not ${describe(value)}`);
    return value;
  };
  const stringRecord = (key: string): Record<string, string> | undefined => {
    const value = raw[key];
    if (value === undefined) return undefined;
    if (!isPlainObject(value)) return void report(field(key), `must be an object of strings, not ${describe(value)}`);
    const out: Record<string, string> = {};
    for (const [member, item] of Object.entries(value)) {
      if (typeof item !== 'string') report(memberPath(field(key), member), `must be a string, not ${describe(item)}`);
      else out[member] = expand(item);
    }
    return out;
  };
  const milliseconds = (key: string): number | undefined => {
    const value = raw[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return void report(field(key), `must be a positive number of milliseconds, not ${describe(value)}`);
    return value;
  };

  const declared = string('type');
  let type: ServerConfig['type'] | undefined;
  if (declared !== undefined) {
    type = TYPE_ALIASES[declared];
    if (type === undefined) report(field('type'), `unknown server type ${JSON.stringify(declared)} (expected stdio, http, sse or ws)`);
  } else if (raw.command !== undefined) {
    type = 'stdio';
  } else if (raw.url !== undefined) {
    type = typeof raw.url === 'string' && /^wss?:/i.test(raw.url) ? 'ws' : 'http';
  } else {
    report(jsonPath, 'needs either "command" (a stdio server) or "url" (a remote server)');
  }
  const disabledValue = raw.disabled;
  if (disabledValue !== undefined && typeof disabledValue !== 'boolean') report(field('disabled'), `must be true or false, not ${describe(disabledValue)}`);
  const common: CommonServerConfig = {
    connectTimeoutMs: milliseconds('connectTimeoutMs'),
    callTimeoutMs: milliseconds('callTimeoutMs'),
    disabled: disabledValue === true ? true : undefined,
  };

  if (raw.oauth !== undefined && (type === 'stdio' || type === 'ws')) report(field('oauth'), type === 'ws' ? 'ws servers are authorized with headers (e.g. "Authorization": "Bearer ${TOKEN}"), not oauth' : 'only remote servers (http, sse) use OAuth');
  const oauth = type === 'http' || type === 'sse' ? parseOAuth(raw.oauth, field('oauth'), report, expand) : undefined;

  let config: ServerConfig | undefined;
  if (type === 'stdio') {
    const command = string('command');
    if (raw.command === undefined) report(field('command'), 'a stdio server needs a command');
    else if (command !== undefined && command.trim() === '') report(field('command'), 'must not be empty');
    let args: string[] | undefined;
    if (raw.args !== undefined) {
      if (!Array.isArray(raw.args)) report(field('args'), `must be an array of strings, not ${describe(raw.args)}`);
      else {
        args = [];
        raw.args.forEach((item: unknown, index) => {
          if (typeof item !== 'string') report(`${field('args')}[${index}]`, `must be a string, not ${describe(item)}`);
          else args!.push(expand(item));
        });
      }
    }
    const childEnv = stringRecord('env');
    const cwdRaw = string('cwd');
    let cwd = cwdRaw === undefined ? undefined : expand(cwdRaw);
    if (cwd !== undefined && source.file !== undefined) cwd = path.resolve(path.dirname(source.file), cwd);
    const expanded = command === undefined ? undefined : expand(command);
    if (command !== undefined && command.trim() !== '' && expanded!.trim() === '') report(field('command'), `expands to an empty command${unset(command)}`);
    if (expanded !== undefined) config = { type, command: expanded, args, env: childEnv, cwd, ...common };
  } else if (type !== undefined) {
    const urlRaw = string('url');
    const headers = stringRecord('headers');
    if (raw.url === undefined) report(field('url'), `a${type === 'http' ? 'n http' : type === 'sse' ? 'n sse' : ' ws'} server needs a url`);
    if (urlRaw !== undefined) {
      const url = expand(urlRaw);
      if (!hasScheme(url, type === 'ws' ? ['ws:', 'wss:'] : ['http:', 'https:'])) report(field('url'), `must be ${type === 'ws' ? 'a ws(s)' : 'an http(s)'} URL, not ${JSON.stringify(url)}${unset(urlRaw)}`);
      else config = { type, url, headers, ...common, ...(oauth !== undefined ? { oauth } : {}) };
    }
  }
  if (problems.length > 0) {
    diagnostics.push(...problems);
    return undefined;
  }
  for (const variable of missing) {
    report(jsonPath, `environment variable ${variable} is not set (it expands to an empty string)`, 'warning');
  }
  return config;
}

/** Checks an entry's `oauth` member; problems go to `report` with their JSON path. */
function parseOAuth(
  raw: unknown,
  at: string,
  report: (at: string, message: string, severity?: 'error' | 'warning') => void,
  expand: (value: string) => string,
): OAuthServerConfig | undefined {
  if (raw === undefined) return undefined;
  if (!isPlainObject(raw)) return void report(at, `must be an object (e.g. {} or { "clientId": "…" }), not ${describe(raw)}`);
  const member = (key: string) => memberPath(at, key);
  for (const key of Object.keys(raw)) {
    if (!OAUTH_MEMBERS.has(key)) report(member(key), `unknown OAuth setting (expected one of ${[...OAUTH_MEMBERS].join(', ')}); it is ignored`, 'warning');
  }
  const text = (key: string, expanded: boolean): string | undefined => {
    const value = raw[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'string') return void report(member(key), `must be a string, not ${describe(value)}`);
    const result = expanded ? expand(value) : value;
    if (result.trim() !== '') return result;
    // A variable that expands to nothing was already reported as unset; the setting is left out.
    if (!(expanded && value.includes('${'))) report(member(key), 'must not be empty');
    return undefined;
  };
  const clientId = text('clientId', true);
  const clientSecret = text('clientSecret', true);
  if (raw.clientSecret !== undefined && raw.clientId === undefined) report(member('clientSecret'), 'a client secret needs a clientId');
  let scopes: string[] | undefined;
  if (raw.scopes !== undefined) {
    if (!Array.isArray(raw.scopes)) report(member('scopes'), `must be an array of scope names, not ${describe(raw.scopes)}`);
    else {
      scopes = [];
      raw.scopes.forEach((item: unknown, index) => {
        if (typeof item !== 'string' || item === '' || /\s/.test(item)) report(`${member('scopes')}[${index}]`, `must be one scope name (no spaces), not ${describe(item)}`);
        else scopes!.push(item);
      });
    }
  }
  const clientMetadataUrl = text('clientMetadataUrl', false);
  if (clientMetadataUrl !== undefined) {
    let url: URL | undefined;
    try {
      url = new URL(clientMetadataUrl);
    } catch {
      url = undefined;
    }
    if (url === undefined || url.protocol !== 'https:' || url.pathname === '/') report(member('clientMetadataUrl'), `must be an https URL with a path, not ${JSON.stringify(clientMetadataUrl)}`);
  }
  let issuer: string[] | undefined;
  if (raw.issuer !== undefined) {
    const items: unknown[] = Array.isArray(raw.issuer) ? raw.issuer : [raw.issuer];
    issuer = [];
    items.forEach((item, index) => {
      const where = Array.isArray(raw.issuer) ? `${member('issuer')}[${index}]` : member('issuer');
      if (typeof item !== 'string' || !isHttpsUrl(item)) report(where, `must be an issuer identifier (an https URL), or an array of them, not ${describe(item)}`);
      else issuer!.push(item);
    });
  }
  const port = raw.redirectPort;
  if (port !== undefined && (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65_535)) {
    report(member('redirectPort'), `must be a port number from 1 to 65535, not ${describe(port)}`);
  }
  return {
    ...(clientId !== undefined ? { clientId } : {}),
    ...(clientSecret !== undefined ? { clientSecret } : {}),
    ...(scopes !== undefined && scopes.length > 0 ? { scopes } : {}),
    ...(clientMetadataUrl !== undefined ? { clientMetadataUrl } : {}),
    ...(typeof port === 'number' ? { redirectPort: port } : {}),
    ...(issuer !== undefined && issuer.length > 0 ? { issuer } : {}),
  };
}

function isHttpsUrl(text: string): boolean {
  try {
    return new URL(text).protocol === 'https:';
  } catch {
    return false;
  }
}

/** `unknown key (did you mean "args"?); it is ignored`, the suggestion only when one is close. */
export function unknownKeyMessage(key: string, known: Iterable<string>): string {
  const suggestion = closestKey(key, known);
  return `unknown key${suggestion === undefined ? '' : ` (did you mean ${JSON.stringify(suggestion)}?)`}; it is ignored`;
}

function hasScheme(text: string, schemes: readonly string[]): boolean {
  try {
    return schemes.includes(new URL(text).protocol);
  } catch {
    return false;
  }
}

/** True for `{…}` values (not arrays, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A short description of a JSON value for error messages. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return `${typeof value} ${String(value)}`;
}
