/**
 * The machinery the doc-example tests share: finding the `@example` blocks of source files, and
 * type-checking example programs against the real sources with the package's subpaths
 * (`mcpgen`, `mcpgen/node`, …) mapped onto them through package.json's exports map, so that
 * documented usage cannot drift from the API.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';

/** The repository root. */
export const ROOT = resolve(import.meta.dirname, '../..');

/** One example program and the name its problems are reported under. */
export interface DocExample {
  readonly name: string;
  readonly code: string;
}

/** `mcpgen/...` → the source file behind it, read from package.json's exports map. */
export function subpathSources(): Record<string, string[]> {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; exports: Record<string, { types: string }> };
  const paths: Record<string, string[]> = {};
  for (const [key, conditions] of Object.entries(manifest.exports)) {
    const specifier = key === '.' ? manifest.name : `${manifest.name}/${key.slice(2)}`;
    paths[specifier] = [join(ROOT, conditions.types.replace(/^\.\/dist\//, '').replace(/\.d\.ts$/, '.ts'))];
  }
  return paths;
}

/** How examples are compiled: strict, for a bundler, the subpaths resolved to the sources. */
export const EXAMPLE_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
  types: ['node'],
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  paths: subpathSources(),
};

/** The `@example` blocks of the `.ts` files directly in `dirs` (repository-relative), in file order. */
export function commentExamples(dirs: readonly string[]): DocExample[] {
  const files = dirs.flatMap((dir) => readdirSync(join(ROOT, dir)).filter((name) => name.endsWith('.ts')).map((name) => `${dir}/${name}`));
  return files.flatMap((file) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const pattern = /@example\s*\n\s*\*\s*```ts\n([\s\S]*?)\n\s*\*\s*```/g;
    return [...text.matchAll(pattern)].map((match, index) => ({ name: `${file}#${index + 1}`, code: match[1]!.split('\n').map((line) => line.replace(/^\s*\* ?/, '')).join('\n') }));
  });
}

/**
 * Type-checks `examples` as files of their own (virtual ones under `.examples/`, named with
 * `prefix`) and returns each problem found in them as `name: message`.
 */
export function typeCheckExamples(examples: readonly DocExample[], prefix: string): string[] {
  const virtual = new Map(examples.map((example, index) => [join(ROOT, `.examples/${prefix}-${index}.ts`), example]));
  const host = ts.createCompilerHost(EXAMPLE_OPTIONS);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (name) => virtual.get(name)?.code ?? readFile(name);
  host.fileExists = (name) => virtual.has(name) || fileExists(name);
  host.getSourceFile = (name, version, onError, create) => {
    const example = virtual.get(name);
    return example === undefined ? getSourceFile(name, version, onError, create) : ts.createSourceFile(name, example.code, version, true);
  };
  const program = ts.createProgram([...virtual.keys()], EXAMPLE_OPTIONS, host);
  return ts
    .getPreEmitDiagnostics(program)
    .filter((diagnostic) => diagnostic.file !== undefined && virtual.has(diagnostic.file.fileName))
    .map((diagnostic) => `${virtual.get(diagnostic.file!.fileName)!.name}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`);
}
