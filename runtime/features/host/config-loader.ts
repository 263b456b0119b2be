/**
 * Finds and merges the `.mcp.json` files that apply to a working directory. Scopes, lowest
 * precedence first: programmatic entries, the user file, project files (from the repository
 * root down to the working directory; closer files win), and `.mcp.local.json` overrides beside
 * project files. An entry replaces a lower one of the same name as a whole. Project and local
 * entries are used only once approved (see trust.ts).
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { readConfigFile } from './config-file.js';
import { trustFilePath, userConfigPath } from './config-paths.js';
import {
  describe,
  isPlainObject,
  memberPath,
  parseServerEntry,
  unknownKeyMessage,
  type ConfigDiagnostic,
  type ConfigScope,
  type HttpAuthHook,
  type ServerConfig,
} from './config.js';
import { entryHash, FileTrustStore, type ApprovalRequest, type TrustStore } from './trust.js';

export { userConfigPath } from './config-paths.js';

/** The project file's name. */
export const PROJECT_CONFIG_FILE = '.mcp.json';
/** The local override's name, meant to stay out of version control. */
export const LOCAL_CONFIG_FILE = '.mcp.local.json';

/** Top-level members of a configuration file. */
const FILE_MEMBERS = ['mcpServers', '$schema'];

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
  /**
   * Read `.mcp.json` and `.mcp.local.json` from the repository root (the nearest directory
   * upwards holding `.git`, never above HOME) down to `cwd`, or from `cwd` alone outside a
   * repository (default true).
   */
  readonly projectFiles?: boolean | undefined;
  /** Further files read as project files after the walk (so they win over it), e.g. from `--config`. */
  readonly extraFiles?: readonly string[] | undefined;
  /** Entries given in code, the lowest scope. */
  readonly servers?: Readonly<Record<string, ProgrammaticServerConfig>> | undefined;
  /**
   * Decides which project and local entries are approved; default a {@link FileTrustStore} on
   * `trusted.json` beside the user file. Entries it does not approve are left out of `servers`
   * and listed in `pending`, with nothing in them expanded.
   */
  readonly trustStore?: TrustStore | undefined;
  /** Approve every project and local entry for this load only, remembering nothing (CI). Default false. */
  readonly approveAll?: boolean | undefined;
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
  /**
   * Project and local entries awaiting approval, closest file last. One whose name has an
   * entry in `servers` (a user entry) says so in `shadows`; the user entry is the one used.
   */
  readonly pending: readonly ApprovalRequest[];
}

/**
 * The directories whose project files apply to `start`, top down: from the nearest ancestor
 * holding `.git` (the repository root) to `start`. Outside a repository, or when the search
 * reaches HOME or the filesystem root first, only `start` itself: a `.mcp.json` in a shared
 * directory above the project (such as the temp folder) is never read.
 */
export function projectDirectories(start: string, home: string): string[] {
  const first = path.resolve(start);
  const stop = path.resolve(home);
  const dirs: string[] = [];
  let current = first;
  for (;;) {
    dirs.unshift(current);
    if (existsSync(path.join(current, '.git'))) return dirs;
    const parent = path.dirname(current);
    if (current === stop || parent === current) return [first];
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
  const store = options.trustStore ?? new FileTrustStore(trustFilePath(env));
  const diagnostics: ConfigDiagnostic[] = [];
  const files: ConfigFile[] = [];
  const winners = new Map<string, ResolvedServer>();
  const rejected = new Map<string, ConfigDiagnostic>();
  const pending = new Map<string, ApprovalRequest>();
  /** Where the entry now in force for each name (winning or rejected) came from. */
  const current = new Map<string, { scope: ConfigScope; file: string | undefined }>();
  let consulted = false;

  /** False when a project or local entry is not approved: it is recorded as pending instead. */
  const approved = (name: string, raw: unknown, scope: ConfigScope, file: string, jsonPath: string): boolean => {
    const before = current.get(name);
    const request: ApprovalRequest = {
      name,
      scope: scope === 'local' ? 'local' : 'project',
      file,
      hash: entryHash(raw),
      entry: raw,
      ...(before?.scope === 'user' ? { shadows: before.file } : {}),
    };
    consulted ||= options.approveAll !== true;
    const where = (origin: { scope: ConfigScope; file: string | undefined }) => `the ${origin.scope} entry of the same name${origin.file === undefined ? '' : ` in ${origin.file}`}`;
    pending.delete(name);
    if (options.approveAll !== true && !store.isApproved(request)) {
      pending.set(name, request);
      if (before !== undefined) diagnostics.push({ severity: 'warning', file, server: name, path: jsonPath, message: `not approved, so ${where(before)} is used instead` });
      return false;
    }
    if (before?.scope === 'user') diagnostics.push({ severity: 'warning', file, server: name, path: jsonPath, message: `approved, so it replaces ${where(before)}` });
    return true;
  };

  const take = (name: string, raw: unknown, scope: ConfigScope, file: string | undefined, jsonPath: string) => {
    if ((scope === 'project' || scope === 'local') && file !== undefined && !approved(name, raw, scope, file, jsonPath)) return;
    current.set(name, { scope, file });
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
    const read = readConfigFile(file);
    if (read.kind === 'missing') {
      if (optional) return;
      files.push({ file, scope });
      diagnostics.push({ severity: 'error', file, path: '$', message: 'cannot read the file: ENOENT: no such file or directory' });
      return;
    }
    files.push({ file, scope });
    if (read.kind === 'refused') {
      diagnostics.push({ severity: 'error', file, path: '$', message: read.message });
      return;
    }
    const document = read.document;
    if (!isPlainObject(document)) {
      diagnostics.push({ severity: 'error', file, path: '$', message: `must be an object with "mcpServers", not ${describe(document)}` });
      return;
    }
    for (const key of Object.keys(document)) {
      if (!FILE_MEMBERS.includes(key)) diagnostics.push({ severity: 'warning', file, path: memberPath('$', key), message: unknownKeyMessage(key, FILE_MEMBERS.slice(0, 1)) });
    }
    const servers = document.mcpServers;
    if (servers === undefined) return;
    if (!isPlainObject(servers)) {
      diagnostics.push({ severity: 'error', file, path: '$.mcpServers', message: `must be an object mapping names to servers, not ${describe(servers)}` });
      return;
    }
    for (const [name, raw] of Object.entries(servers)) take(name, raw, scope, file, memberPath('$.mcpServers', name));
  };

  const cwd = options.cwd ?? process.cwd();
  if (options.userFile !== false) readFile(options.userFile ?? userConfigPath(env), 'user', options.userFile === undefined);
  if (options.projectFiles !== false) {
    const dirs = projectDirectories(cwd, env.HOME ?? homedir());
    for (const dir of dirs) readFile(path.join(dir, PROJECT_CONFIG_FILE), 'project', true);
    for (const extra of options.extraFiles ?? []) readFile(path.resolve(cwd, extra), 'project', false);
    for (const dir of dirs) readFile(path.join(dir, LOCAL_CONFIG_FILE), 'local', true);
  } else {
    for (const extra of options.extraFiles ?? []) readFile(path.resolve(cwd, extra), 'project', false);
  }
  const problem = consulted && store instanceof FileTrustStore ? store.problem : undefined;
  if (problem !== undefined) diagnostics.push({ severity: 'error', file: store instanceof FileTrustStore ? store.file : undefined, path: '$', message: problem });

  const servers = [...winners.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { servers, rejected, files, diagnostics, pending: [...pending.values()] };
}
