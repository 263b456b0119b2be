/**
 * What the `mcpgen` CLI prints, through real child processes and real sockets: server-supplied
 * text without terminal control sequences, configuration errors with line and column and exit
 * status 2, and failures that keep their cause (the JSON-RPC code and data, a server's non-JSON
 * stdout, ECONNREFUSED).
 */
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../../runtime/features/host/cli-run.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const HOSTILE = fileURLToPath(new URL('./fixtures/hostile-server.ts', import.meta.url));
const scratch = realpathSync(mkdtempSync(path.join(tmpdir(), 'mcpgen-host-cli-')));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const env = { PATH: process.env.PATH, HOME: path.join(scratch, 'home'), XDG_CONFIG_HOME: path.join(scratch, 'xdg') };

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

async function cli(args: readonly string[], cwd = scratch, extraEnv: Record<string, string> = {}): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: { write: (text: string) => (stdout += text) }, stderr: { write: (text: string) => (stderr += text) }, env: { ...env, ...extraEnv }, cwd });
  return { code, stdout, stderr };
}

// By path, so the one-off server resolves tsx from any working directory.
const TSX = pathToFileURL(path.join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
const hostile = ['--stdio', `${JSON.stringify(process.execPath)} --import ${TSX} ${JSON.stringify(HOSTILE)}`, '--timeout', '20000'];

/** Any C0 control but newline and tab, DEL, a C1 control, or ESC. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

describe('server-supplied text reaches the terminal without control sequences', () => {
  it('strips escape sequences from tool output, descriptions, server info, prompts, errors and elicitation text, keeping newlines and tabs', async () => {
    const runs = await Promise.all([
      cli([...hostile, 'call', 'shout']),
      cli([...hostile, 'tools']),
      cli([...hostile, 'servers']),
      cli([...hostile, 'prompt', 'greet']),
      cli([...hostile, 'prompts']),
      cli([...hostile, 'call', 'fail']),
      cli([...hostile, 'call', 'pay']),
    ]);
    for (const run of runs) {
      expect(run.stdout).not.toMatch(CONTROL);
      expect(run.stderr).not.toMatch(CONTROL);
    }
    const [shout, tools, servers, prompt, prompts, fail, pay] = runs as [Run, Run, Run, Run, Run, Run, Run];
    expect(shout.stdout).toBe('line oneredX\n\tline two\n');
    expect(tools.stdout).toContain('ShoutsredX back');
    expect(servers.stdout).toContain('hostileredX 1.0redX');
    expect(prompt.stdout).toContain('helloredX');
    expect(prompts.stdout).toContain('GreetsredX');
    expect(fail.stderr).toContain('quota exceededredX');
    expect(pay.stderr).toContain('Complete the paymentredX');
    // JSON keeps every character, escaped, so scripts see exactly what the server sent.
    const json = await cli([...hostile, '--json', 'call', 'shout']);
    expect(json.stdout).not.toMatch(CONTROL);
    expect(JSON.parse(json.stdout).content[0].text).toBe('line one\u001b]0;pwned\u0007\u001b[31mred\u001b[0m\u001b[2J\u0008\r\u009b1mX\n\tline two');
  });
});

describe('a failed request keeps its JSON-RPC error', () => {
  it('prints the code and data, and --json prints the error object on stdout', async () => {
    const text = await cli([...hostile, 'call', 'fail']);
    expect(text.code).toBe(1);
    expect(text.stderr).toContain('stdio/fail failed (JSON-RPC error -32050): quota exceededredX');
    // data is printed as JSON, so its control characters show as escapes.
    expect(text.stderr).toContain('data: {"retryAfterSeconds":30,"note":"wait\\u001b]0;pwned\\u0007');
    const json = await cli([...hostile, '--json', 'call', 'fail']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual({
      error: { code: -32050, message: expect.stringContaining('quota exceeded'), data: { retryAfterSeconds: 30, note: expect.stringContaining('wait') } },
    });
  });
});

describe('connect failures say why', () => {
  it('a server that writes non-JSON to stdout: the failure quotes the line and the stderr tail', async () => {
    const script = "console.log('Starting weather server v2 on stdio...'); console.error('warming up the cache'); process.stdin.resume()";
    const run = await cli(['--stdio', `${JSON.stringify(process.execPath)} -e ${JSON.stringify(script)}`, '--timeout', '1500', 'tools']);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('timed out after 1500 ms');
    expect(run.stderr).toContain('wrote a line that is not JSON-RPC to stdout: "Starting weather server v2 on stdio..."');
    expect(run.stderr).toContain('stderr: warming up the cache');
  });

  it('a dead URL names ECONNREFUSED', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const run = await cli(['--url', `http://127.0.0.1:${port}/mcp`, 'tools']);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/ECONNREFUSED/);
    expect(run.stderr).toContain(`127.0.0.1:${port}`);
  });
});

describe('configuration errors', () => {
  function project(files: Record<string, string>): string {
    const root = path.join(scratch, `p${Math.random().toString(36).slice(2)}`);
    mkdirSync(path.join(root, '.git'), { recursive: true });
    for (const [name, text] of Object.entries(files)) {
      writeFileSync(path.join(root, name), text);
      chmodSync(path.join(root, name), 0o644);
    }
    return root;
  }

  it('a .mcp.json that is not valid JSON makes every command exit 2 with the line and column', async () => {
    const cwd = project({ '.mcp.json': '{\n  "mcpServers": {\n    "a": { "command": "x", }\n  }\n}\n' });
    for (const command of [['servers'], ['tools'], ['call', 'a', 'b'], ['prompts']]) {
      const run = await cli([...command], cwd);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`error: ${path.join(cwd, '.mcp.json')}, $: not valid JSON at line 3, column 28`);
      expect(run.stderr).not.toMatch(/position \d+/);
      expect(run.stderr).not.toContain('no servers are configured');
    }
  });

  it('warns about unknown keys with a suggestion, and names the unset variable behind a bad url', async () => {
    const cwd = project({
      '.mcp.json': JSON.stringify({
        mcpServer: {},
        mcpServers: {
          a: { command: 'true', argz: ['x'], enviroment: { A: '1' }, colour: 'red' },
          b: { url: '${MISSING_URL}/mcp' },
        },
      }),
    });
    const run = await cli(['--approve', 'servers'], cwd);
    const file = path.join(cwd, '.mcp.json');
    expect(run.stderr).toContain(`warning: ${file}, $.mcpServer: unknown key (did you mean "mcpServers"?); it is ignored`);
    expect(run.stderr).toContain(`warning: ${file}, server a, $.mcpServers.a.argz: unknown key (did you mean "args"?); it is ignored`);
    expect(run.stderr).toContain(`warning: ${file}, server a, $.mcpServers.a.enviroment: unknown key (did you mean "env"?); it is ignored`);
    expect(run.stderr).toContain(`warning: ${file}, server a, $.mcpServers.a.colour: unknown key; it is ignored`);
    expect(run.stderr).toContain(`error: ${file}, server b, $.mcpServers.b.url: must be an http(s) URL, not "/mcp" (environment variable MISSING_URL is not set)`);
    expect(run.code).toBe(2);
  });
});
