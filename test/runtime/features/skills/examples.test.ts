/**
 * Type-checks every `@example` of the skills modules (runtime/features/skills and its node/
 * folder) against the real sources, with the package's subpaths mapped onto them, so that the
 * documented usage cannot drift from the API.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../../..');
const SOURCES = ['runtime/features/skills', 'runtime/features/skills/node'];

function examplesOf(file: string): Array<{ name: string; code: string }> {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const pattern = /@example\s*\n\s*\*\s*```ts\n([\s\S]*?)\n\s*\*\s*```/g;
  return [...text.matchAll(pattern)].map((match, index) => ({ name: `${file}#${index + 1}`, code: match[1]!.split('\n').map((line) => line.replace(/^\s*\* ?/, '')).join('\n') }));
}

const examples = SOURCES.flatMap((dir) => readdirSync(join(ROOT, dir)).filter((name) => name.endsWith('.ts')).map((name) => `${dir}/${name}`)).flatMap(examplesOf);

it('the public API of mcpgen/skills has examples, and they type-check', () => {
  expect(examples.length).toBeGreaterThanOrEqual(5);
  const virtual = new Map(examples.map((example, index) => [join(ROOT, `.examples/skills-example-${index}.ts`), example]));
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
    paths: { mcpgen: ['runtime/index.ts'], 'mcpgen/skills': ['runtime/features/skills/index.ts'], 'mcpgen/skills/node': ['runtime/features/skills/node/index.ts'], 'mcpgen/node': ['runtime/node.ts'] },
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
