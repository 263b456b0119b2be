/**
 * Type-checks every `@example` of the MCP Apps modules (runtime/features/apps) against the real
 * sources, with the package's subpaths (`mcpgen`, `mcpgen/apps`) mapped onto them, so that the
 * documented usage cannot drift from the API.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../../..');
const SOURCES = ['runtime/features/apps'];

interface Example {
  readonly name: string;
  readonly code: string;
}

function examplesOf(file: string): Example[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const examples: Example[] = [];
  const pattern = /@example\s*\n\s*\*\s*```ts\n([\s\S]*?)\n\s*\*\s*```/g;
  for (const match of text.matchAll(pattern)) {
    const code = match[1]!.split('\n').map((line) => line.replace(/^\s*\* ?/, '')).join('\n');
    examples.push({ name: `${file}#${examples.length + 1}`, code });
  }
  return examples;
}

const examples = SOURCES.flatMap((dir) => readdirSync(join(ROOT, dir)).filter((name) => name.endsWith('.ts')).map((name) => `${dir}/${name}`)).flatMap(examplesOf);

describe('apps doc examples', () => {
  it('exist for the public API and type-check', () => {
    expect(examples.length).toBeGreaterThanOrEqual(15);
    const virtual = new Map(examples.map((example, index) => [join(ROOT, `.examples/example-${index}.ts`), example]));
    const options: ts.CompilerOptions = {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: ['node'],
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      baseUrl: ROOT,
      paths: { mcpgen: ['runtime/index.ts'], 'mcpgen/apps': ['runtime/features/apps/index.ts'] },
    };
    const host = ts.createCompilerHost(options);
    const readFile = host.readFile.bind(host);
    const fileExists = host.fileExists.bind(host);
    const getSourceFile = host.getSourceFile.bind(host);
    host.readFile = (name) => virtual.get(name)?.code ?? readFile(name);
    host.fileExists = (name) => virtual.has(name) || fileExists(name);
    host.getSourceFile = (name, version, onError, create) => {
      const example = virtual.get(name);
      return example === undefined ? getSourceFile(name, version, onError, create) : ts.createSourceFile(name, example.code, version, true);
    };
    const program = ts.createProgram([...virtual.keys()], options, host);
    const problems = ts.getPreEmitDiagnostics(program)
      .filter((diagnostic) => diagnostic.file !== undefined && virtual.has(diagnostic.file.fileName))
      .map((diagnostic) => `${virtual.get(diagnostic.file!.fileName)!.name}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`);
    expect(problems).toEqual([]);
  }, 120_000);
});
