/**
 * The CLI's interactive and long-running features against a real stdio server in both eras:
 * tool parameters in `tools`, form elicitation asked on a terminal (and declined, with a notice,
 * without one), `complete`, and a tool that runs only as a task.
 */
import { PassThrough } from 'node:stream';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../../runtime/features/host/cli-run.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const SERVER = fileURLToPath(new URL('./fixtures/cli-features-server.ts', import.meta.url));
const TSX = pathToFileURL(path.join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
const env = { PATH: process.env.PATH, HOME: '/nonexistent', XDG_CONFIG_HOME: '/nonexistent' };

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the CLI on the fixture; `answers` are typed on a terminal (stdin and stderr TTYs) when given. */
async function cli(pin: 'both' | '2025-11-25', args: readonly string[], answers?: readonly string[]): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const stdin = Object.assign(new PassThrough(), { isTTY: true });
  if (answers !== undefined) stdin.end(answers.map((line) => `${line}\n`).join(''));
  const code = await runCli(['--stdio', `${JSON.stringify(process.execPath)} --import ${TSX} ${JSON.stringify(SERVER)} ${pin}`, '--timeout', '20000', ...args], {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text), isTTY: answers !== undefined },
    ...(answers === undefined ? {} : { stdin }),
    env,
    cwd: ROOT,
  });
  return { code, stdout, stderr };
}

for (const pin of ['both', '2025-11-25'] as const) {
  const era = pin === 'both' ? '2026-07-28' : '2025-11-25';
  describe(`the CLI against a ${era} server`, () => {
    it('lists each tool with its parameters, optional ones in brackets', async () => {
      const run = await cli(pin, ['tools']);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^SERVER +TOOL +PARAMETERS +DESCRIPTION$/m);
      expect(run.stdout).toMatch(/book +city:string \[nights:integer\] \[room:single\|double\] \[tags:string\[\]\] +Books a stay/);
    });

    it('asks a form on the terminal, re-asking answers that do not fit, and sends the typed values', async () => {
      const run = await cli(pin, ['call', 'survey'], ['A', 'Ada', 'x', '36', '', 'y']);
      expect(run.code, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual({ name: 'Ada', age: 36, color: 'green', subscribe: true });
      expect(run.stderr).toContain('stdio asks: Tell us about you');
      expect(run.stderr).toContain('Name* (string): ');
      expect(run.stderr).toContain('at least 2 characters');
      expect(run.stderr).toContain('expected an integer');
      expect(run.stderr).toContain('color (string, one of 1) red 2) green 3) blue, default "green")');
    });

    it('cancels the form after three answers that do not fit, and declines on !decline', async () => {
      const exhausted = await cli(pin, ['call', 'survey'], ['A', 'B', 'C', 'Ada']);
      expect(exhausted.stdout).toBe('cancel\n');
      expect(exhausted.stderr).toContain('mcpgen: no usable answer for name, so the request is cancelled');
      const declined = await cli(pin, ['call', 'survey'], ['Ada', '!decline']);
      expect(declined.stdout).toBe('decline\n');
    });

    it('cancels when the user types !cancel, and declines with a notice when there is no terminal', async () => {
      const cancelled = await cli(pin, ['call', 'survey'], ['!cancel']);
      expect(cancelled.stdout).toBe('cancel\n');
      const declined = await cli(pin, ['call', 'survey']);
      expect(declined.stdout).toBe('decline\n');
      expect(declined.stderr).toContain('mcpgen: not a terminal, so the request is declined');
    });

    it('completes prompt and template arguments, with the arguments already chosen', async () => {
      const countries = await cli(pin, ['complete', 'trip', 'country']);
      expect(countries.code, countries.stderr).toBe(0);
      expect(countries.stdout).toBe('fr\nit\n');
      const cities = await cli(pin, ['complete', 'trip', 'city=L', 'country=fr']);
      expect(cities.stdout).toBe('Lyon\nLille\n');
      const template = await cli(pin, ['--json', 'complete', 'cities://{country}', 'country=i']);
      expect(JSON.parse(template.stdout)).toMatchObject({ values: ['it'] });
      const unknown = await cli(pin, ['complete', 'nope', 'x']);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toMatch(/completion failed \(JSON-RPC error -32602\)/);
    });

    it('runs a task-only tool as a task and prints its final result', async () => {
      const run = await cli(pin, ['call', 'render']);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toBe('rendered as a task\n');
    });
  });
}
