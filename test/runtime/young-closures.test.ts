/**
 * A Server built per request dies in the young generation (docs/performance.md, "Closures that
 * die young"). V8 allocates a function literal assigned straight to a property in the old
 * generation, and such a closure keeps its whole Server alive through every scavenge; the
 * runtime binds those callbacks through a local instead. One test scans runtime/ for the
 * pattern, the other counts, in a process of its own, what a scavenge leaves of Servers built,
 * connected and closed.
 */
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { linesWhere, repositoryRoot, scanRuntime } from './source-scan.js';

const run = promisify(execFile);

/** `target.name = (…) => …`, `target[key] = async () => …`, `target.name = function …`, not `==`. */
const PROPERTY_FUNCTION = /[\w$\])]\s*(?:\.[\w$#]+|\[(?:[^[\]\n]|\[[^[\]\n]*\])+\])\s*=(?!=)\s*(?:async\s+)?(?:function\b|\([^()]*\)\s*(?::[^=;]+)?=>|[\w$]+\s*=>)/;
/** A declaration's type annotation (`const f: T['x'] = () => …`) is not a property. */
const DECLARATION = /^\s*(?:export\s+)?(?:const|let|var)\s/;

/** The lines of one source that assign a function literal straight to a property: `file:line`. */
function propertyFunctions(file: string, source: string): string[] {
  return linesWhere(file, source, (line) => PROPERTY_FUNCTION.test(line) && !DECLARATION.test(line));
}

describe('runtime/', () => {
  it('assigns no function literal straight to a property (bind it to a local first)', () => {
    expect(scanRuntime(propertyFunctions)).toEqual([]);
  });
});

describe('the scan', () => {
  it('finds arrows, async arrows and functions assigned to properties, and skips declarations, comparisons and comments', () => {
    const source = [
      'transport.onclose = () => this.close();',
      'this.#hook = async (value: string): Promise<void> => undefined;',
      'target[NAMES[kind]] = function () {};',
      'server.protocol.onerror = error => report(error);',
      "const onclose: Transport['onclose'] = () => undefined;",
      'transport.onclose = onclose;',
      'if (a.b === (() => 1)) {}',
      '// transport.onclose = () => this.close();',
      'readonly handler = () => 1;',
    ].join('\n');
    expect(propertyFunctions('x.ts', source).map((hit) => hit.split(':').slice(0, 2).join(':'))).toEqual(['x.ts:1', 'x.ts:2', 'x.ts:3', 'x.ts:4']);
  });
});

/** What the fixture measures, in bytes per Server left after a scavenge. */
interface Survivors {
  readonly server: number;
  readonly mcpServer: number;
}

describe('a Server built per request', () => {
  // With a closure in the old generation, or a WeakMap entry whose value holds its key, every
  // Server survives whole (7 KB and more); the bound leaves room for feedback and code that the
  // loop may still allocate.
  const BOUND = 2048;

  it('leaves nothing behind a scavenge once connected and closed, built directly or by McpServer', async () => {
    const fixture = join(repositoryRoot, 'test/runtime/fixtures/per-request-servers.ts');
    const { stdout } = await run(process.execPath, ['--expose-gc', '--import', 'tsx', fixture], { cwd: repositoryRoot });
    const survivors = JSON.parse(stdout) as Survivors;
    expect(survivors.server).toBeLessThan(BOUND);
    expect(survivors.mcpServer).toBeLessThan(BOUND);
  });
});
