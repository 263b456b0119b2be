/**
 * The runtime spells no method name: every one comes from generated/methods.ts, so a new
 * revision adds names without a runtime edit. Scans the string literals of runtime/**\/*.ts
 * (comments, doc comments and their @example blocks excluded) for values that are generated
 * method names.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Method } from '../../generated/methods.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const METHOD_NAMES = new Set<string>(Object.values(Method));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((entry) => {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) return sourceFiles(path);
      return path.endsWith('.ts') ? [path] : [];
    });
}

/** The code of a TypeScript source with comments blanked out (line structure kept). */
function stripComments(source: string): string {
  let out = '';
  let i = 0;
  while (i < source.length) {
    const char = source[i]!;
    const next = source[i + 1];
    if (char === '/' && next === '/') {
      while (i < source.length && source[i] !== '\n') i++;
    } else if (char === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end === -1 ? source.length : end + 2;
      out += source.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
    } else if (char === "'" || char === '"' || char === '`') {
      let j = i + 1;
      while (j < source.length && source[j] !== char) j += source[j] === '\\' ? 2 : 1;
      out += source.slice(i, j + 1);
      i = j + 1;
    } else {
      out += char;
      i++;
    }
  }
  return out;
}

/** The method-name literals of one source: `file:line: 'name'`. */
function methodLiterals(file: string, source: string): string[] {
  const found: string[] = [];
  stripComments(source)
    .split('\n')
    .forEach((line, index) => {
      for (const match of line.matchAll(/(['"`])((?:(?!\1)[^\\\n]|\\.)*)\1/g)) {
        if (METHOD_NAMES.has(match[2]!)) found.push(`${file}:${index + 1}: ${match[0]}`);
      }
    });
  return found;
}

describe('runtime/', () => {
  it('names no method with a string literal (use Method from generated/methods.ts)', () => {
    const found = sourceFiles(join(root, 'runtime')).flatMap((path) => methodLiterals(relative(root, path), readFileSync(path, 'utf8')));
    expect(found).toEqual([]);
  });
});

describe('the scan', () => {
  it('finds literals in code, in any quotes, and skips comments and @example blocks', () => {
    const source = [
      "/** Sends `tools/call`.",
      ' * @example',
      " * client.request('tools/call', {});",
      ' */',
      "server.setRequestHandler('tools/list', handler); // 'ping'",
      'const a = "notifications/initialized";',
      "type H = Handler<'initialize'>;",
      "const b = 'tools/calls';",
    ].join('\n');
    expect(methodLiterals('x.ts', source)).toEqual(["x.ts:5: 'tools/list'", 'x.ts:6: "notifications/initialized"', "x.ts:7: 'initialize'"]);
  });
});
