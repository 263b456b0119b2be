/**
 * The `mcpgen` command: lists servers, tools, resources and prompts, calls tools, reads
 * resources and gets prompts, for the servers of the `.mcp.json` configuration or a one-off
 * server given with `--stdio` or `--url`; `login` and `logout` manage a remote server's OAuth
 * tokens, which the other commands use silently.
 */
import { SdkError, messageOf } from '../../core/errors.js';
import type { Progress } from '../../core/pending-requests.js';
import { EXIT, keyValueArguments, parseArgs, UsageError, type CliArgs } from './cli-args.js';
import { login, logout, writeJson, type CliIo } from './cli-auth.js';
import { complete } from './cli-complete.js';
import { clip, isConfigurationFailure, toolParameters, protocolErrorOf, renderPrompt, renderResourceContents, renderToolResult, statusDetail, table, terminalIo } from './cli-format.js';
import { createCliManager, oneOffName } from './cli-manager.js';
import { USAGE } from './cli-usage.js';
import type { ConnectionManager } from './manager.js';
import { terminalSafe } from './terminal-text.js';

export type { CliIo } from './cli-auth.js';
export { USAGE } from './cli-usage.js';

/** Commands that name a server as their first argument, and those where it is optional. */
const SERVER_REQUIRED = new Set(['call', 'read', 'prompt', 'complete', 'login', 'logout']);
const SERVER_OPTIONAL = new Set(['tools', 'resources', 'prompts']);

/**
 * Runs the CLI with `argv` (without the node and script paths) and resolves with the exit
 * status. Never throws: every failure is reported on `io.stderr`.
 *
 * @example
 * ```ts
 * import { runCli } from 'mcpgen/host';
 *
 * process.exitCode = await runCli(['tools', '--json'], { stdout: process.stdout, stderr: process.stderr });
 * ```
 */
export async function runCli(argv: readonly string[], terminal: CliIo): Promise<number> {
  // Everything printed may carry text from a server or a project file: no control sequences.
  const io = terminalIo(terminal);
  let args: CliArgs;
  try {
    args = parseArgs(argv);
  } catch (error) {
    io.stderr.write(`mcpgen: ${messageOf(error)}\n\n${USAGE}`);
    return EXIT.USAGE;
  }
  if (args.help || args.command === undefined) {
    (args.help ? io.stdout : io.stderr).write(USAGE);
    return args.help ? EXIT.OK : EXIT.USAGE;
  }
  const session = new CliSession(args, io, terminal);
  try {
    return await session.run();
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`mcpgen: ${error.message}\n`);
      return EXIT.USAGE;
    }
    io.stderr.write(`mcpgen: ${messageOf(error)}\n`);
    return EXIT.FAILED;
  } finally {
    await session.close();
  }
}

/** One CLI run: the manager it builds, and the command it runs with it. */
class CliSession {
  private readonly args: CliArgs;
  private readonly io: CliIo;
  /** The unfiltered streams, for the CLI's own terminal controls (progress lines). */
  private readonly terminal: CliIo;
  private manager: ConnectionManager | undefined;
  private progressShown = false;

  constructor(args: CliArgs, io: CliIo, terminal: CliIo) {
    this.args = args;
    this.io = io;
    this.terminal = terminal;
  }

  async run(): Promise<number> {
    const { command } = this.args;
    if (command === undefined || !['servers', 'tools', 'call', 'resources', 'read', 'prompts', 'prompt', 'complete', 'login', 'logout'].includes(command)) {
      throw new UsageError(`unknown command ${JSON.stringify(command)} (try --help)`);
    }
    const oneOff = oneOffName(this.args);
    let positionals = [...this.args.positionals];
    // With a one-off server, naming it is optional.
    if (oneOff !== undefined && (SERVER_REQUIRED.has(command) || SERVER_OPTIONAL.has(command)) && positionals[0] !== oneOff) positionals.unshift(oneOff);
    const server = SERVER_REQUIRED.has(command) || SERVER_OPTIONAL.has(command) ? positionals[0] : undefined;
    if (SERVER_REQUIRED.has(command) && server === undefined) throw new UsageError(`${command} needs a server name`);
    const manager = await createCliManager(this.args, this.io, server, () => this.endProgress());
    if (manager === undefined) return EXIT.USAGE;
    this.manager = manager;
    if (server !== undefined && !manager.serverNames.includes(server)) {
      throw new UsageError(`no server named ${server} is configured (known: ${manager.serverNames.join(', ') || 'none'})`);
    }
    positionals = positionals.slice(1);

    if (command === 'servers') return this.servers(manager);
    if (command === 'login') return login(manager, server!, this.args, this.io);
    if (command === 'logout') return logout(manager, server!, this.args, this.io);
    if (server === undefined) {
      await manager.connectAll();
      for (const name of manager.serverNames) {
        const status = manager.status(name);
        if (status.state !== 'connected' && status.state !== 'disabled') this.io.stderr.write(`mcpgen: ${name}: ${status.state}${status.reason === undefined ? '' : `: ${status.reason}`}\n`);
      }
    } else {
      const known = manager.status(server);
      const status = known.state === 'failed' || known.state === 'needs-approval' ? known : await manager.connect(server);
      if (status.state !== 'connected') {
        this.io.stderr.write(`mcpgen: ${server}: ${status.state}${status.reason === undefined ? '' : `: ${status.reason}`}\n`);
        return isConfigurationFailure(status) ? EXIT.USAGE : EXIT.UNAVAILABLE;
      }
    }
    try {
      const code = await this.runConnected(manager, command, server, positionals);
      // A listing that left out servers nobody approved did not do everything it was asked to.
      const unapproved = manager.serverNames.some((name) => manager.status(name).state === 'needs-approval');
      return code === EXIT.OK && server === undefined && unapproved ? EXIT.UNAVAILABLE : code;
    } catch (error) {
      const unavailable = this.unavailable(manager, server);
      if (unavailable === undefined) throw error;
      return unavailable;
    }
  }

  private async runConnected(manager: ConnectionManager, command: string, server: string | undefined, positionals: string[]): Promise<number> {
    switch (command) {
      case 'tools':
        return this.tools(manager, server);
      case 'call':
        return this.call(manager, server!, positionals);
      case 'resources':
        return this.resources(manager, server);
      case 'read':
        return this.read(manager, server!, positionals);
      case 'prompts':
        return this.prompts(manager, server);
      case 'complete':
        return complete(manager, server!, positionals, this.args, this.io).catch((error: unknown) => {
          if (error instanceof UsageError) throw error;
          return this.failed(server!, `${server} completion`, error);
        });
      default:
        return this.prompt(manager, server!, positionals);
    }
  }

  async close(): Promise<void> {
    await this.manager?.close();
  }

  private async servers(manager: ConnectionManager): Promise<number> {
    const statuses = await manager.connectAll();
    const names = Object.keys(statuses);
    if (this.args.json) {
      this.json(names.map((name) => {
        const { error: _error, ...status } = statuses[name]!;
        const connection = isConfigurationFailure(status) || status.state === 'needs-approval' ? undefined : manager.connection(name);
        return { name, type: connection?.config.type, ...status };
      }));
    } else if (names.length === 0) {
      this.io.stderr.write('mcpgen: no servers are configured (looked for .mcp.json, .mcp.local.json and the user file)\n');
    } else {
      const rows = names.map((name) => {
        const status = statuses[name]!;
        const type = isConfigurationFailure(status) || status.state === 'needs-approval' ? '-' : manager.connection(name).config.type;
        return [name, status.state, status.transport ?? type, statusDetail(status)];
      });
      this.io.stdout.write(table(['SERVER', 'STATUS', 'TRANSPORT', 'DETAILS'], rows));
    }
    if (names.some((name) => isConfigurationFailure(statuses[name]!))) return EXIT.USAGE;
    return names.every((name) => ['connected', 'disabled'].includes(statuses[name]!.state)) ? EXIT.OK : EXIT.UNAVAILABLE;
  }

  private async tools(manager: ConnectionManager, server: string | undefined): Promise<number> {
    const tools = await manager.tools(server);
    if (this.args.json) this.json(tools.map(({ name, server: owner, tool }) => ({ server: owner, exposedName: name, ...tool })));
    else this.io.stdout.write(table(['SERVER', 'TOOL', 'PARAMETERS', 'DESCRIPTION'], tools.map(({ server: owner, tool }) => [owner, tool.name, toolParameters(tool.inputSchema), clip(tool.description)])));
    return EXIT.OK;
  }

  private async call(manager: ConnectionManager, server: string, positionals: string[]): Promise<number> {
    const [tool, ...words] = positionals;
    if (tool === undefined) throw new UsageError('call needs a tool name');
    let args: Record<string, unknown> = {};
    if (this.args.args !== undefined) {
      if (words.length > 0) throw new UsageError('use either --args JSON or key=value words, not both');
      let parsed: unknown;
      try {
        parsed = JSON.parse(this.args.args);
      } catch (error) {
        throw new UsageError(`--args is not valid JSON: ${messageOf(error)}`);
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new UsageError('--args must be a JSON object');
      args = parsed as Record<string, unknown>;
    } else if (words.length > 0) {
      const schema = (await manager.tools(server)).find((entry) => entry.tool.name === tool)?.tool.inputSchema;
      args = keyValueArguments(words, schema as { properties?: Record<string, unknown> } | undefined);
    }
    try {
      const result = await manager.callTool({ server, tool }, args, { onprogress: (progress) => this.progress(progress), resetTimeoutOnProgress: true });
      this.endProgress();
      if (this.args.json) this.json(result);
      else {
        const text = renderToolResult(result);
        if (text !== '') this.io.stdout.write(`${text}\n`);
      }
      if (result.isError === true) {
        this.io.stderr.write(`mcpgen: ${server}/${tool} reported an error\n`);
        return EXIT.FAILED;
      }
      return EXIT.OK;
    } catch (error) {
      this.endProgress();
      return this.failed(server, `${server}/${tool}`, error);
    }
  }

  private async resources(manager: ConnectionManager, server: string | undefined): Promise<number> {
    const [resources, templates] = await Promise.all([manager.resources(server), manager.resourceTemplates(server)]);
    if (this.args.json) {
      this.json({ resources: resources.map(({ server: owner, resource }) => ({ server: owner, ...resource })), resourceTemplates: templates.map(({ server: owner, template }) => ({ server: owner, ...template })) });
      return EXIT.OK;
    }
    const rows = [
      ...resources.map(({ server: owner, resource }) => [owner, resource.uri, resource.mimeType ?? '', clip(resource.description ?? resource.name)]),
      ...templates.map(({ server: owner, template }) => [owner, template.uriTemplate, template.mimeType ?? '', clip(template.description ?? template.name)]),
    ];
    this.io.stdout.write(table(['SERVER', 'URI', 'TYPE', 'DESCRIPTION'], rows));
    return EXIT.OK;
  }

  private async read(manager: ConnectionManager, server: string, positionals: string[]): Promise<number> {
    const uri = positionals[0];
    if (uri === undefined) throw new UsageError('read needs a resource URI');
    try {
      const result = await manager.readResource(server, uri);
      if (this.args.json) this.json(result);
      else this.io.stdout.write(`${renderResourceContents(result)}\n`);
      return EXIT.OK;
    } catch (error) {
      return this.failed(server, `${server} ${uri}`, error);
    }
  }

  private async prompts(manager: ConnectionManager, server: string | undefined): Promise<number> {
    const prompts = await manager.prompts(server);
    if (this.args.json) this.json(prompts.map(({ server: owner, prompt }) => ({ server: owner, ...prompt })));
    else {
      const rows = prompts.map(({ server: owner, prompt }) => [
        owner,
        prompt.name,
        (prompt.arguments ?? []).map((argument) => (argument.required === true ? argument.name : `[${argument.name}]`)).join(' '),
        clip(prompt.description),
      ]);
      this.io.stdout.write(table(['SERVER', 'PROMPT', 'ARGUMENTS', 'DESCRIPTION'], rows));
    }
    return EXIT.OK;
  }

  private async prompt(manager: ConnectionManager, server: string, positionals: string[]): Promise<number> {
    const [name, ...words] = positionals;
    if (name === undefined) throw new UsageError('prompt needs a prompt name');
    // Prompt arguments are strings on the wire: keep what the user typed.
    const args: Record<string, string> = {};
    for (const word of words) {
      const equals = word.indexOf('=');
      if (equals <= 0) throw new UsageError(`expected key=value, not ${JSON.stringify(word)}`);
      args[word.slice(0, equals)] = word.slice(equals + 1);
    }
    try {
      const result = await manager.getPrompt(server, name, words.length === 0 ? undefined : args);
      if (this.args.json) this.json(result);
      else this.io.stdout.write(`${renderPrompt(result)}\n`);
      return EXIT.OK;
    } catch (error) {
      return this.failed(server, `${server}/${name}`, error);
    }
  }

  /**
   * When `server` lost its authorization during the command (a stateless-era server that the
   * process knew already connects without a request, so its 401 comes with the first one):
   * says so as a failed connect does, and returns that exit status.
   */
  private unavailable(manager: ConnectionManager, server: string | undefined): number | undefined {
    if (server === undefined) return undefined;
    const status = manager.status(server);
    if (status.state !== 'needs-auth') return undefined;
    this.io.stderr.write(`mcpgen: ${server}: ${status.state}${status.reason === undefined ? '' : `: ${status.reason}`}\n`);
    return EXIT.UNAVAILABLE;
  }

  private failed(server: string, what: string, error: unknown): number {
    const unavailable = this.unavailable(this.manager!, server);
    if (unavailable !== undefined) return unavailable;
    const protocol = protocolErrorOf(error);
    if (this.args.json) {
      this.json({ error: protocol?.toJSON() ?? { code: error instanceof SdkError ? error.code : undefined, message: messageOf(error) } });
    }
    if (protocol !== undefined) {
      const data = protocol.data === undefined ? '' : `\nmcpgen: data: ${JSON.stringify(protocol.data)}`;
      this.io.stderr.write(`mcpgen: ${what} failed (JSON-RPC error ${protocol.code}): ${protocol.message}${data}\n`);
      return EXIT.FAILED;
    }
    const code = error instanceof SdkError ? ` (${error.code})` : '';
    this.io.stderr.write(`mcpgen: ${what} failed${code}: ${messageOf(error)}\n`);
    return error instanceof SdkError && error.code === 'NOT_CONNECTED' ? EXIT.UNAVAILABLE : EXIT.FAILED;
  }

  private json(value: unknown): void {
    writeJson(this.io, value);
  }

  /** One progress line on stderr, rewritten in place on a terminal. */
  private progress(progress: Progress): void {
    const total = progress.total === undefined ? '' : `/${progress.total}`;
    const message = progress.message === undefined ? '' : ` ${progress.message}`;
    const line = terminalSafe(`progress ${progress.progress}${total}${message}`).replace(/\n/g, ' ');
    if (this.io.stderr.isTTY === true) this.terminal.stderr.write(`\r\u001b[2K${line}`);
    else this.io.stderr.write(`${line}\n`);
    this.progressShown = true;
  }

  private endProgress(): void {
    if (this.progressShown && this.io.stderr.isTTY === true) this.terminal.stderr.write('\r\u001b[2K');
    this.progressShown = false;
  }
}
