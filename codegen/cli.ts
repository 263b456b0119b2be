/**
 * The codegen command line (`tsx codegen/cli.ts …`, wrapped by `make generate`, `make check` and
 * the `make spec-*` targets): `generate` runs the pipeline of main.ts, `spec` the maintainer
 * commands of spec-cli.ts. It is the only module that imports both, so neither imports the other.
 */
import { join } from 'node:path';
import { diffOutput, generateAll, selectRevision, syncPackageExports, writeOutput } from './main.js';
import { CodegenError } from './model.js';
import { runSpecCommand } from './spec-cli.js';
import { DOCS_DIR, unmarkedDocs } from './spec-docs.js';
import { readPins, repoRoot, SpecSourceError } from './spec-source.js';

const USAGE = [
  'usage: tsx codegen/cli.ts generate [--revision R] [--check]',
  '       tsx codegen/cli.ts spec add <revision> --url <url> [--sha256 <hash>] [--era stateful|stateless] [--status released|draft]',
  '       tsx codegen/cli.ts spec update <revision> --url <url> [--sha256 <hash>] [--era stateful|stateless] [--force --reason <text>]',
  '       tsx codegen/cli.ts spec diff <from> <to> [--json]',
].join('\n');

async function runGenerate(rest: readonly string[]): Promise<number> {
  const check = rest.includes('--check');
  const revIndex = rest.indexOf('--revision');
  const only = revIndex >= 0 ? rest[revIndex + 1] : undefined;
  const pins = readPins();
  if (only !== undefined && !pins.some((p) => p.revision === only)) {
    process.stderr.write(`codegen: revision ${only} is not pinned in spec/revisions.json\n`);
    return 2;
  }
  const outDir = join(repoRoot, 'generated');
  const started = Date.now();
  const output = await generateAll({ log: (line) => process.stderr.write(`${line}\n`) });
  const { files } = output;
  if (check) {
    const problems = [
      ...(only === undefined ? diffOutput(files, outDir) : diffOutput(selectRevision(files, only), outDir).filter((p) => !p.startsWith('not produced'))),
      ...diffOutput(output.docs, join(repoRoot, DOCS_DIR), DOCS_DIR),
      ...unmarkedDocs(join(repoRoot, DOCS_DIR)),
      ...syncPackageExports(repoRoot, pins, true),
    ];
    if (problems.length > 0) {
      process.stderr.write(`${problems.map((p) => `codegen --check: ${p}`).join('\n')}\nRun \`make generate\` and commit the result.\n`);
      return 1;
    }
    process.stdout.write(`codegen --check: generated/ is current (${files.size} files, ${Date.now() - started} ms)\n`);
    return 0;
  }
  const written = writeOutput(repoRoot, output, pins, only);
  process.stdout.write(`codegen: wrote ${written} files to generated/ in ${Date.now() - started} ms\n`);
  return 0;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'generate') return runGenerate(rest);
  if (command === 'spec') {
    return runSpecCommand(rest, { root: repoRoot, out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(text) });
  }
  process.stderr.write(`${USAGE}\n`);
  return 2;
}

if (process.argv[1] !== undefined && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      // Deliberate failures are one line; anything else (a bug) shows its stack.
      const known = error instanceof CodegenError || error instanceof SpecSourceError || (error instanceof Error && error.constructor === Error && !error.message.includes('\n'));
      process.stderr.write(`codegen: ${known ? (error as Error).message : (error as Error).stack}\n`);
      process.exit(1);
    },
  );
}
