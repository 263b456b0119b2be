/**
 * Maintainer commands for living with spec revisions (`tsx codegen/cli.ts spec …`):
 *
 *   spec add <revision> --url <url> [--sha256 <hash>] [--era stateful|stateless] [--status released|draft]
 *   spec update <revision> --url <url> [--sha256 <hash>] [--era stateful|stateless] [--force --reason <text>]
 *   spec diff <from> <to> [--json]
 *
 * `add` and `update` regenerate everything in memory first and type-check runtime/ against that
 * tree (spec-typecheck.ts); generated/ and docs/changes/ are then swapped in, and spec/ (patch
 * list, revisions.json) is written last, so a failure at any step leaves the repository as it was.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildRevision, generateAll, patchFileText, writeOutput } from './main.js';
import { CodegenError } from './model.js';
import { SpecCommandError } from './spec-command-error.js';
import { diffRevisions } from './spec-diff.js';
import { renderDiffMarkdown } from './spec-diff-markdown.js';
import { DOCS_DIR } from './spec-docs.js';
import { checkRevisionName, inferEra, insertPin, movePin, writePins } from './spec-pins.js';
import { formatDiagnostics, hasRuntime, typeCheckRuntime } from './spec-typecheck.js';
import { downloadSchema, parseSchema, readPins, sha256, SpecSourceError, storeInCache, type RevisionPin } from './spec-source.js';

export interface SpecIo {
  /** Repository root holding spec/, generated/ and docs/. */
  readonly root: string;
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  /** Defaults to $MCP_SPEC_MIRROR. */
  readonly mirror?: string;
}

const USAGE = `usage: tsx codegen/cli.ts spec add <revision> --url <url> [--sha256 <hash>] [--era stateful|stateless] [--status released|draft]
       tsx codegen/cli.ts spec update <revision> --url <url> [--sha256 <hash>] [--era stateful|stateless] [--force --reason <text>]
       tsx codegen/cli.ts spec diff <from> <to> [--json]`;

/** Runs one `spec` command; returns the exit code (0 done, 1 refused or failed, 2 usage error). */
export async function runSpecCommand(argv: readonly string[], io: SpecIo): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === 'add') await addRevision(rest, io);
    else if (command === 'update') await updateRevision(rest, io);
    else if (command === 'diff') await diffCommand(rest, io);
    else {
      io.err(`${command === undefined ? '' : `codegen: unknown spec command ${JSON.stringify(command)}\n`}${USAGE}\n`);
      return 2;
    }
    return 0;
  } catch (error) {
    if (error instanceof SpecCommandError) {
      io.err(`codegen: ${error.message}\n`);
      return error.exitCode;
    }
    const deliberate = error instanceof CodegenError || error instanceof SpecSourceError || (error instanceof Error && error.constructor === Error && !error.message.includes('\n'));
    if (!deliberate) throw error;
    io.err(`codegen: ${(error as Error).message}\n`);
    return 1;
  }
}

type OptionSpec = Record<string, { type: 'string' | 'boolean' }>;

function parse<T extends OptionSpec>(command: string, args: readonly string[], options: T, positionals: number) {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new SpecCommandError(`spec ${command}: ${(error as Error).message.split('\n')[0]}`, 2);
  }
  if (parsed.positionals.length !== positionals) {
    throw new SpecCommandError(`spec ${command} takes ${positionals === 1 ? 'one revision' : `${positionals} revisions`}, got ${parsed.positionals.length === 0 ? 'none' : parsed.positionals.join(' ')}; see \`tsx codegen/cli.ts spec\``, 2);
  }
  return parsed;
}

function checkUrl(command: string, url: string | undefined): string {
  if (url === undefined) throw new SpecCommandError(`spec ${command} needs --url <url> of the schema.json to pin`, 2);
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    throw new SpecCommandError(`--url ${JSON.stringify(url)} is not a URL; give an https:// (or file://) address of a schema.json`, 2);
  }
  if (!['https:', 'http:', 'file:'].includes(protocol)) throw new SpecCommandError(`--url ${JSON.stringify(url)} uses ${protocol}; codegen downloads https://, http:// and file:// URLs`, 2);
  return url;
}

function checkHash(hash: string | undefined): string | undefined {
  if (hash === undefined) return undefined;
  const lower = hash.toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(lower)) throw new SpecCommandError(`--sha256 ${JSON.stringify(hash)} is not a sha256 (64 hex digits)`, 2);
  return lower;
}

function checkChoice<T extends string>(flag: string, value: string | undefined, allowed: readonly T[]): T | undefined {
  if (value === undefined || (allowed as readonly string[]).includes(value)) return value as T | undefined;
  throw new SpecCommandError(`--${flag} must be ${allowed.join(' or ')}, got ${JSON.stringify(value)}`, 2);
}

/** The bytes to pin: the mirror's copy when asked and present, else a download of the URL. */
async function fetchSchema(revision: string, url: string, mirror: string | undefined, preferMirror: boolean): Promise<{ bytes: Buffer; origin: string; downloaded: boolean }> {
  const file = mirror ? join(mirror, revision, 'schema.json') : null;
  if (preferMirror && file !== null && existsSync(file)) return { bytes: readFileSync(file), origin: file, downloaded: false };
  try {
    return { bytes: await downloadSchema(revision, url), origin: url, downloaded: true };
  } catch (error) {
    if (!(error instanceof SpecSourceError) || !preferMirror || file === null) throw error;
    throw new SpecSourceError(`${error.message.split('; ')[0]}; nor does the mirror hold ${file}`);
  }
}

/** Checks fetched bytes against --sha256 and reads them as a schema (JSON, known dialect). */
function checkBytes(pin: Omit<RevisionPin, 'sha256' | 'era'>, fetched: { bytes: Buffer; origin: string }, expected: string | undefined): { hash: string; document: Record<string, unknown> } {
  const hash = sha256(fetched.bytes);
  if (expected !== undefined && hash !== expected) {
    throw new SpecCommandError(`revision ${pin.revision}: sha256 of ${fetched.origin} is ${hash}, but --sha256 says ${expected}; check the URL and the hash`);
  }
  const loaded = parseSchema({ ...pin, sha256: hash, era: 'stateful' }, fetched.bytes, fetched.origin);
  return { hash, document: loaded.document };
}

/**
 * Generates every pin into memory, type-checks runtime/ against that tree, then swaps generated/
 * and docs/changes/ in; returns the file counts. A tree the runtime does not compile against is
 * refused with the compiler's diagnostics before anything is written.
 */
async function regenerate(io: SpecIo, pins: readonly RevisionPin[], revision: string, newRevision?: string): Promise<{ files: number; docs: number }> {
  const patches = newRevision !== undefined && !existsSync(patchFile(io.root, newRevision)) ? new Map([[newRevision, []]]) : undefined;
  const output = await generateAll({ root: io.root, mirror: io.mirror, pins, ...(patches === undefined ? {} : { patches }), log: (line) => io.err(`${line}\n`) });
  if (hasRuntime(io.root)) {
    const diagnostics = typeCheckRuntime(io.root, output.files);
    if (diagnostics.length > 0) {
      throw new SpecCommandError(
        `revision ${revision}: runtime/ does not compile against the new generated/ (${diagnostics.length} error${diagnostics.length === 1 ? '' : 's'}); nothing was written. ` +
          `Map a renamed path in codegen/protocol-facts.ts, patch the schema in spec/patches/${revision}.json, or adapt runtime/ first:\n${formatDiagnostics(diagnostics)}`,
      );
    }
  }
  writeOutput(io.root, output, pins);
  return { files: output.files.size, docs: output.docs.size };
}

function patchFile(root: string, revision: string): string {
  return join(root, 'spec', 'patches', `${revision}.json`);
}

function mirrorOf(io: SpecIo): string | undefined {
  const mirror = io.mirror ?? process.env.MCP_SPEC_MIRROR;
  return mirror === undefined || mirror === '' ? undefined : mirror;
}

async function addRevision(args: readonly string[], io: SpecIo): Promise<void> {
  const { values, positionals } = parse('add', args, { url: { type: 'string' }, sha256: { type: 'string' }, era: { type: 'string' }, status: { type: 'string' } }, 1);
  const revision = checkRevisionName(positionals[0]);
  const url = checkUrl('add', values.url);
  const expected = checkHash(values.sha256);
  const era = checkChoice('era', values.era, ['stateful', 'stateless'] as const);
  const status = checkChoice('status', values.status, ['released', 'draft'] as const) ?? (revision === 'draft' ? 'draft' : 'released');
  if (revision === 'draft' && status !== 'draft') throw new SpecCommandError('revision draft is always --status draft; pin a release under its date', 2);
  const pins = readPins(io.root);
  if (pins.some((p) => p.revision === revision)) {
    throw new SpecCommandError(`revision ${revision} is already pinned in spec/revisions.json; use \`spec update ${revision} --url …\` to move it`);
  }
  const mirror = mirrorOf(io);
  const fetched = await fetchSchema(revision, url, mirror, true);
  const { hash, document } = checkBytes({ revision, url, status }, fetched, expected);
  const pin: RevisionPin = { revision, url, sha256: hash, era: era ?? inferEra(document), status };
  if (fetched.downloaded) storeInCache(join(io.root, '.cache', 'spec'), revision, fetched.bytes);
  const next = insertPin(pins, pin);
  let counts: { files: number; docs: number };
  try {
    counts = await regenerate({ ...io, mirror }, next, revision, revision);
  } catch (error) {
    const unpatched = !existsSync(patchFile(io.root, revision)) && (error instanceof CodegenError || (error instanceof Error && error.constructor === Error));
    if (!unpatched || !(error as Error).message.startsWith(`revision ${revision}:`)) throw error;
    throw new CodegenError(`${(error as Error).message}; to correct the schema, write spec/patches/${revision}.json and run spec add again`, { cause: error });
  }
  // An empty patch list, as regenerate() hashed it into every MANIFEST.json.
  if (!existsSync(patchFile(io.root, revision))) writeFileSync(patchFile(io.root, revision), patchFileText([]));
  writePins(io.root, next);
  io.out(`codegen: pinned ${revision} (${pin.era}, ${pin.status}, sha256 ${hash}) from ${fetched.origin}; wrote ${counts.files} files to generated/ and ${counts.docs} to ${DOCS_DIR}/\n`);
}

async function updateRevision(args: readonly string[], io: SpecIo): Promise<void> {
  const { values, positionals } = parse(
    'update',
    args,
    { url: { type: 'string' }, sha256: { type: 'string' }, era: { type: 'string' }, force: { type: 'boolean' }, reason: { type: 'string' } },
    1,
  );
  const revision = checkRevisionName(positionals[0]);
  const url = checkUrl('update', values.url);
  const expected = checkHash(values.sha256);
  const era = checkChoice('era', values.era, ['stateful', 'stateless'] as const);
  const reason = values.reason?.trim();
  if (values.force === true && (reason === undefined || reason === '')) throw new SpecCommandError('--force needs --reason "<why the released pin moves>"; the reason is recorded in spec/revisions.json', 2);
  const pins = readPins(io.root);
  const pin = pins.find((p) => p.revision === revision);
  if (pin === undefined) throw new SpecCommandError(`revision ${revision} is not pinned in spec/revisions.json; use \`spec add ${revision} --url …\` to pin it`);
  if (pin.status === 'released' && values.force !== true) {
    throw new SpecCommandError(`revision ${revision} is released and its pin is immutable; to move it anyway pass --force --reason "<why>" (recorded in spec/revisions.json)`);
  }
  const mirror = mirrorOf(io);
  // The mirror holds the bytes of the current pin; the new ones come from the URL.
  const fetched = await fetchSchema(revision, url, mirror, false);
  const { hash, document } = checkBytes(pin, fetched, expected);
  const nextEra = era ?? inferEra(document);
  if (hash === pin.sha256 && url === pin.url && nextEra === pin.era) {
    io.out(`codegen: revision ${revision} is already pinned to ${url} (sha256 ${hash}); nothing to do\n`);
    return;
  }
  storeInCache(join(io.root, '.cache', 'spec'), revision, fetched.bytes);
  const moved = movePin(pin, { url, sha256: hash, era: nextEra }, reason === '' ? undefined : reason, new Date().toISOString().slice(0, 10));
  const next = pins.map((p) => (p.revision === revision ? moved : p));
  const counts = await regenerate({ ...io, mirror }, next, revision);
  writePins(io.root, next);
  const eraNote = nextEra === pin.era ? '' : `, era ${pin.era} → ${nextEra}`;
  io.out(`codegen: moved ${revision} from sha256 ${pin.sha256} to ${hash}${eraNote}; wrote ${counts.files} files to generated/ and ${counts.docs} to ${DOCS_DIR}/\n`);
}

async function diffCommand(args: readonly string[], io: SpecIo): Promise<void> {
  const { values, positionals } = parse('diff', args, { json: { type: 'boolean' } }, 2);
  const pins = readPins(io.root);
  const [from, to] = positionals.map((revision) => {
    const pin = pins.find((p) => p.revision === revision);
    if (pin === undefined) throw new SpecCommandError(`revision ${revision} is not pinned in spec/revisions.json (pinned: ${pins.map((p) => p.revision).join(', ')})`, 2);
    return pin;
  });
  const mirror = mirrorOf(io);
  const [a, b] = await Promise.all([buildRevision(from!, { root: io.root, mirror }), buildRevision(to!, { root: io.root, mirror })]);
  const diff = diffRevisions(a, b);
  io.out(values.json === true ? `${JSON.stringify(diff, null, 2)}\n` : renderDiffMarkdown(diff));
}
