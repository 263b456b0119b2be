// @opentelemetry/api is an optional peer: mcpgen/otel alone imports it, so no other entry (the
// root `mcpgen` least of all) loads it, statically or dynamically.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../../..');
const RUNTIME = join(ROOT, 'runtime');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    return entry.isDirectory() ? sources(full) : entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** The module specifiers of a source file, comments left out. */
function specifiers(file: string): string[] {
  const code = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  return [...code.matchAll(/(?:from\s*|import\s*\(?\s*)['"]([^'"]+)['"]/g)].map((match) => match[1]!);
}

it('is imported under runtime/features/otel/ only', () => {
  const importers = sources(RUNTIME)
    .filter((file) => specifiers(file).some((specifier) => specifier.startsWith('@opentelemetry/')))
    .map((file) => relative(RUNTIME, file));
  expect(importers.sort()).toEqual(['features/otel/telemetry.ts', 'features/otel/trace-context.ts']);
});

it('is out of reach of the root entry and the other runtime-neutral ones', () => {
  for (const entry of ['index.ts', 'http.ts', 'advanced.ts', 'testing.ts', 'node.ts']) {
    const seen = new Set<string>();
    const queue = [join(RUNTIME, entry)];
    while (queue.length > 0) {
      const file = queue.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      for (const specifier of specifiers(file)) {
        if (specifier.startsWith('.')) queue.push(resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
      }
    }
    const reached = [...seen].filter((file) => file.startsWith(join(RUNTIME, 'features/otel')));
    expect(reached, entry).toEqual([]);
    expect(seen.size, entry).toBeGreaterThan(5);
  }
});
