/**
 * The runtime spells no method name: every one comes from generated/methods.ts, so a new
 * revision adds names without a runtime edit. Scans the string literals of runtime/**\/*.ts
 * (comments, doc comments and their @example blocks excluded) for values that are generated
 * method names.
 */
import { describe, expect, it } from 'vitest';
import { Method } from '../../generated/methods.js';
import { scanRuntime, stripComments } from './source-scan.js';

const METHOD_NAMES = new Set<string>(Object.values(Method));

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
    expect(scanRuntime(methodLiterals)).toEqual([]);
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
