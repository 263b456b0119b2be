/**
 * Finds and merges the `.mcp.json` files that apply to a working directory. Scopes, lowest
 * precedence first: programmatic entries, the user file, project files (walking from the
 * working directory up to the filesystem root; closer files win), and `.mcp.local.json`
 * overrides beside project files. An entry replaces a lower one of the same name as a whole.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { messageOf } from '../../core/errors.js';
import {
  describe,
  isPlainObject,
  memberPath,
  parseServerEntry,
  type ConfigDiagnostic,
  type ConfigScope,
  type HttpAuthHook,
  type ServerConfig,
} from './config.js';

/** The project file's name. */
export const PROJECT_CONFIG_FILE = '.mcp.json';
/** The local override's name, meant to stay out of version control. */
export const LOCAL_CONFIG_FILE = '.mcp.local.json';

/** A server entry given in code: a config object, optionally with an auth hook for remote servers. */
export type ProgrammaticServerConfig = Record<string, unknown> & { readonly auth?: HttpAuthHook | undefined };

/** Options of {@link loadConfig}. */
export interface LoadConfigOptions {
  /** Where the walk for project files starts; default `process.cwd()`. */
  readonly cwd?: string | undefined;
  /** Variables for `${VAR}` expansion and for locating the user file; default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  /**
   * The user file; default `$XDG_CONFIG_HOME/mcpgen/mcp.json`, or `~/.config/mcpgen/mcp.json`
   * when XDG_CONFIG_HOME is unset. `false` skips it.
   */
  readonly userFile?: string | false | undefined;
  /** Walk up for `.mcp.json` and `.mcp.local.json` (default true). */
  readonly projectFiles?: boolean | undefined;
  /** Further files read as project files after the walk (so they win over it), e.g. from `--config`. */
  readonly extraFiles?: readonly string[] | undefined;
  /** Entries given in code, the lowest scope. */
  readonly servers?: Readonly<Record<string, ProgrammaticServerConfig>> | undefined;
}

/** A server entry that survived loading. */
export interface ResolvedServer {
  readonly name: string;
  readonly config: ServerConfig;
  readonly scope: ConfigScope;
  /** The file it came from; absent for programmatic entries. */
  readonly file?: string | undefined;
}

/** A file that was read (whether or not it had problems). */
export interface ConfigFile {
  readonly file: string;
  readonly scope: ConfigScope;
}

/** What {@link loadConfig} found. */
export interface LoadedConfig {
  /** The winning entry per server name, sorted by name. */
  readonly servers: readonly ResolvedServer[];
  /**
   * Names whose winning entry was malformed. The server is not connected (a lower-scope entry
   * of the same name is not used instead, as that would connect somewhere unintended).
   */
  readonly rejected: ReadonlyMap<string, ConfigDiagnostic>;
  readonly files: readonly ConfigFile[];
  readonly diagnostics: readonly ConfigDiagnostic[];
}

/** The user file's path for an environment. */
export function userConfigPath(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const xdg = env.XDG_CONFIG_HOME;
  const base = xdg !== undefined && xdg !== '' && path.isAbsolute(xdg) ? xdg : path.join(env.HOME ?? homedir(), '.config');
  return path.join(base, 'mcpgen', 'mcp.json');
}

/** Directories from the filesystem root down to `start`. */
function ancestorsTopDown(start: string): string[] {
  const dirs: string[] = [];
  let current = path.resolve(start);
  for (;;) {
    dirs.unshift(current);
    const parent = path.dirname(current);
    if (parent === current) return dirs;
    current = parent;
  }
}

/**
 * Loads the configuration that applies to `cwd`. Never throws for bad input: an unreadable or
 * malformed file, or a malformed entry, becomes an error diagnostic naming the file, the server
 * and the JSON path, and the rest still loads; unset variables become warnings.
 *
 * @example
 * ```ts
 * import { loadConfig } from 'mcpgen/host';
 *
 * const config = loadConfig({ cwd: process.cwd() });
 * for (const problem of config.diagnostics) console.warn(`${problem.file ?? '(code)'} ${problem.path}: ${problem.message}`);
 * console.log(config.servers.map((server) => `${server.name} (${server.scope})`));
 * ```
 */
export function loadConfig(options: LoadConfigOptions = {}): LoadedConfig {
  const env = options.env ?? process.env;
  const diagnostics: ConfigDiagnostic[] = [];
  const files: ConfigFile[] = [];
  const winners = new Map<string, ResolvedServer>();
  const rejected = new Map<string, ConfigDiagnostic>();

  const take = (name: string, raw: unknown, scope: ConfigScope, file: string | undefined, jsonPath: string) => {
    const before = diagnostics.length;
    const config = parseServerEntry(name, raw, { scope, file }, jsonPath, env, diagnostics);
    if (config === undefined) {
      winners.delete(name);
      rejected.set(name, diagnostics.slice(before).find((problem) => problem.severity === 'error')!);
      return;
    }
    const auth = scope === 'programmatic' && isPlainObject(raw) ? (raw.auth as HttpAuthHook | undefined) : undefined;
    rejected.delete(name);
    winners.set(name, { name, config: auth !== undefined && config.type !== 'stdio' ? { ...config, auth } : config, scope, file });
  };

  for (const [name, raw] of Object.entries(options.servers ?? {})) {
    take(name, raw, 'programmatic', undefined, memberPath('$.servers', name));
  }

  const readFile = (file: string, scope: ConfigScope, optional: boolean) => {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (optional && (code === 'ENOENT' || code === 'ENOTDIR')) return;
      files.push({ file, scope });
      diagnostics.push({ severity: 'error', file, path: '$', message: `cannot read the file: ${messageOf(error)}` });
      return;
    }
    files.push({ file, scope });
    let document: unknown;
    try {
      document = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    } catch (error) {
      diagnostics.push({ severity: 'error', file, path: '$', message: `not valid JSON: ${messageOf(error)}` });
      return;
    }
    if (!isPlainObject(document)) {
      diagnostics.push({ severity: 'error', file, path: '$', message: `must be an object with "mcpServers", not ${describe(document)}` });
      return;
    }
    const servers = document.mcpServers;
    if (servers === undefined) return;
    if (!isPlainObject(servers)) {
      diagnostics.push({ severity: 'error', file, path: '$.mcpServers', message: `must be an object mapping names to servers, not ${describe(servers)}` });
      return;
    }
    for (const [name, raw] of Object.entries(servers)) take(name, raw, scope, file, memberPath('$.mcpServers', name));
  };

  if (options.userFile !== false) readFile(options.userFile ?? userConfigPath(env), 'user', options.userFile === undefined);
  if (options.projectFiles !== false) {
    const dirs = ancestorsTopDown(options.cwd ?? process.cwd());
    for (const dir of dirs) readFile(path.join(dir, PROJECT_CONFIG_FILE), 'project', true);
    for (const extra of options.extraFiles ?? []) readFile(path.resolve(options.cwd ?? process.cwd(), extra), 'project', false);
    for (const dir of dirs) readFile(path.join(dir, LOCAL_CONFIG_FILE), 'local', true);
  } else {
    for (const extra of options.extraFiles ?? []) readFile(path.resolve(options.cwd ?? process.cwd(), extra), 'project', false);
  }

  const servers = [...winners.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { servers, rejected, files, diagnostics };
}
