/**
 * Keeps the `@example` blocks of the host modules (runtime/features/host) type-checked. Each block
 * is copied, with the package's subpaths rewritten to the sources, into doc-examples/, which
 * `tsc -p tsconfig.json` (the typecheck step) compiles with everything else; this test only
 * checks that the copies are current, which costs no compiler run of its own.
 * `UPDATE_EXAMPLES=1 npx vitest run test/runtime/features/host/examples.test.ts` rewrites them.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../../..');
const SOURCE = 'runtime/features/host';
const OUT = join(import.meta.dirname, 'doc-examples');
const SUBPATHS: Readonly<Record<string, string>> = {
  mcpgen: '../../../../../runtime/index.js',
  'mcpgen/node': '../../../../../runtime/node.js',
  'mcpgen/host': '../../../../../runtime/features/host/index.js',
};

function expectedFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const name of readdirSync(join(ROOT, SOURCE)).filter((file) => file.endsWith('.ts')).sort()) {
    const text = readFileSync(join(ROOT, SOURCE, name), 'utf8');
    const pattern = /@example\s*\n\s*\*\s*```ts\n([\s\S]*?)\n\s*\*\s*```/g;
    [...text.matchAll(pattern)].forEach((match, index) => {
      const code = match[1]!
        .split('\n')
        .map((line) => line.replace(/^\s*\* ?/, ''))
        .join('\n')
        .replace(/from '(mcpgen(?:\/[a-z]+)?)'/g, (whole, subpath: string) => (SUBPATHS[subpath] === undefined ? whole : `from '${SUBPATHS[subpath]}'`));
      files.set(`${name.replace(/\.ts$/, '')}-${index + 1}.ts`, `// Copied from the @example ${index + 1} of ${SOURCE}/${name} by examples.test.ts; do not edit.\n${code}\nexport {};\n`);
    });
  }
  return files;
}

describe('host doc examples', () => {
  it('are copied, current, into doc-examples/ for the typecheck step', () => {
    const expected = expectedFiles();
    expect(expected.size).toBeGreaterThanOrEqual(8);
    if (process.env.UPDATE_EXAMPLES === '1') {
      rmSync(OUT, { recursive: true, force: true });
      mkdirSync(OUT, { recursive: true });
      for (const [name, content] of expected) writeFileSync(join(OUT, name), content);
    }
    const actual = new Map(readdirSync(OUT).sort().map((name) => [name, readFileSync(join(OUT, name), 'utf8')]));
    expect(actual, 'doc-examples/ is stale: run UPDATE_EXAMPLES=1 npx vitest run test/runtime/features/host/examples.test.ts').toEqual(expected);
  });
});
