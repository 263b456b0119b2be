/**
 * The servers one CLI run sees: a one-off server given with `--stdio` or `--url`, or the
 * `.mcp.json` configuration (with its trust prompts and diagnostics), behind one
 * ConnectionManager set up for a terminal.
 */
import { UsageError, splitCommandLine, type CliArgs } from './cli-args.js';
import { askUrl, type CliIo } from './cli-auth.js';
import { askForm } from './cli-elicit.js';
import { isFileFailure } from './cli-format.js';
import { approveAllRequested, askApprovals } from './cli-trust.js';
import type { ConfigDiagnostic, ServerConfig } from './config.js';
import { loadConfig, type LoadConfigOptions } from './config-loader.js';
import { trustFilePath } from './config-paths.js';
import { ConnectionManager, type ConnectionManagerOptions } from './manager.js';
import { NodeOAuth } from './oauth.js';
import { FileTrustStore } from './trust.js';

/** The name of the one-off server of `--stdio` or `--url` (`--name`, else the flag's), if any. */
export function oneOffName(args: CliArgs): string | undefined {
  if (args.stdio === undefined && args.url === undefined) return undefined;
  return args.name ?? (args.stdio !== undefined ? 'stdio' : 'url');
}

/**
 * The manager for a run, or undefined when a configuration file is unusable (reported on
 * stderr). Only the approvals of `server` are asked for when the command names one.
 * `beforeForm` runs before a form elicitation takes the terminal (it clears a progress line).
 */
export async function createCliManager(args: CliArgs, io: CliIo, server: string | undefined, beforeForm: () => void): Promise<ConnectionManager | undefined> {
  const env = io.env ?? process.env;
  const options: ConnectionManagerOptions = {
    clientInfo: { name: 'mcpgen-cli', version: '0.1.0' },
    connectTimeoutMs: args.connectTimeoutMs,
    callTimeoutMs: args.callTimeoutMs,
    env,
    reconnect: false,
    onUrlElicitation: (prompt) => askUrl(io, prompt),
    onFormElicitation: (prompt) => {
      beforeForm();
      return askForm(io, prompt);
    },
    // Every remote server may use the tokens `mcpgen login` stored; none opens a browser unasked.
    oauth: new NodeOAuth({ env, clientName: 'mcpgen' }),
    resultSizing: { maxChars: args.maxResultChars, strategy: args.resultStrategy, directory: args.resultDirectory },
  };
  const oneOff = oneOffConfig(args, env);
  if (oneOff !== undefined) return new ConnectionManager({ [oneOffName(args)!]: oneOff }, options);
  const trustStore = new FileTrustStore(trustFilePath(env));
  const load: LoadConfigOptions = {
    cwd: args.cwd ?? io.cwd,
    env,
    extraFiles: args.configFiles,
    trustStore,
    approveAll: approveAllRequested(args.approve, env),
  };
  let config = loadConfig(load);
  // A file that is not valid JSON (or not safe to read) stops every command: acting on the
  // rest could connect somewhere the user did not mean.
  if (!config.diagnostics.some(isFileFailure)) {
    const asked = config.pending.filter((request) => server === undefined || request.name === server);
    if (await askApprovals(asked, io, trustStore) > 0) config = loadConfig(load);
  }
  for (const problem of config.diagnostics) report(io, problem);
  if (config.diagnostics.some(isFileFailure)) return undefined;
  return new ConnectionManager(config.servers, { ...options, rejected: config.rejected, pending: config.pending });
}

function oneOffConfig(args: CliArgs, env: Readonly<Record<string, string | undefined>>): ServerConfig | undefined {
  if (args.url !== undefined) return { type: /^wss?:/i.test(args.url) ? 'ws' : 'http', url: args.url };
  if (args.stdio === undefined) return undefined;
  const [command, ...rest] = splitCommandLine(args.stdio);
  if (command === undefined) throw new UsageError('--stdio needs a command');
  return { type: 'stdio', command, args: rest, env: inheritedEnv(env) };
}

function report(io: CliIo, problem: ConfigDiagnostic): void {
  const where = [problem.file, problem.server === undefined ? undefined : `server ${problem.server}`, problem.path].filter((part) => part !== undefined).join(', ');
  io.stderr.write(`mcpgen: ${problem.severity}: ${where}: ${problem.message}\n`);
}

/**
 * A one-off stdio server typed on the command line gets the caller's PATH-like environment,
 * as a shell would give it; configured servers get only what their entry sets.
 */
function inheritedEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value;
  return out;
}
