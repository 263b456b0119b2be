/**
 * A bundler keeps a module's load-time work, and all it reaches, in every program that imports
 * the package, even one that never uses the class doing it (docs/performance.md, "Modules that
 * do no work at load"). A class static block is such work, so runtime/ has none; the package
 * bundle tests check what the server bundles hold.
 */
import { describe, expect, it } from 'vitest';
import { linesWhere, scanRuntime } from './source-scan.js';

/** `static {` opening a class static block, not a `static` member. */
const STATIC_BLOCK = /\bstatic\s*\{/;

/** The lines of one source that open a class static block: `file:line`. */
function staticBlocks(file: string, source: string): string[] {
  return linesWhere(file, source, (line) => STATIC_BLOCK.test(line));
}

describe('runtime/', () => {
  it('has no class static block (do the work on first construction instead)', () => {
    expect(scanRuntime(staticBlocks)).toEqual([]);
  });
});

describe('the scan', () => {
  it('finds static blocks, and skips static members and comments', () => {
    const source = [
      '  static {',
      '  static{ install(); }',
      '  static installStubs(): void {',
      '  private static readonly table = {};',
      '  // static {',
    ].join('\n');
    expect(staticBlocks('x.ts', source).map((hit) => hit.split(':').slice(0, 2).join(':'))).toEqual(['x.ts:1', 'x.ts:2']);
  });
});
