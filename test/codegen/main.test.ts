/**
 * The pipeline as a whole: deterministic output, drift detection, pin checks, one-line errors
 * that name what is wrong, and the CLI's exit codes.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffOutput, generate, type GeneratedFiles } from '../../codegen/main.js';
import { CodegenError } from '../../codegen/model.js';
import { loadSchema, readPins, sha256, SpecSourceError, type RevisionPin } from '../../codegen/spec-source.js';
import { cliRoot, fixturePin, fixturesDir, linkedRoot, runCli, type CliOutcome, type TempRoot } from './fixture-root.js';
import { repoRoot, specMirrorDir } from './spec-examples.js';

const scratch = mkdtempSync(join(tmpdir(), 'mcpgen-main-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));


/** A mirror folder holding `bytes` as the fixture revision's schema.json, and a pin that matches them. */
function badMirror(name: string, bytes: string): { mirror: string; pin: RevisionPin } {
  const mirror = join(scratch, name);
  mkdirSync(join(mirror, fixturePin().revision), { recursive: true });
  writeFileSync(join(mirror, fixturePin().revision, 'schema.json'), bytes);
  return { mirror, pin: { ...fixturePin(), sha256: sha256(bytes) } };
}

const fixtureText = () => readFileSync(join(fixturesDir, fixturePin().revision, 'schema.json'), 'utf8');
type Defs = Record<string, Record<string, unknown>>;
function editedFixture(edit: (defs: Defs) => void): string {
  const doc = JSON.parse(fixtureText()) as { $defs: Defs };
  edit(doc.$defs);
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/** The three broken inputs (d) feeds to generate() and to the CLI. */
const BAD_INPUTS = {
  truncated: () => fixtureText().slice(0, 1000),
  unresolvableRef: () =>
    editedFixture((defs) => {
      (defs.EchoRequestParams!.properties as Defs).cursor = { $ref: '#/$defs/Missing' };
    }),
  underivableResult: () =>
    editedFixture((defs) => {
      delete defs.EmptyResult;
    }),
};

function expectedMessage(kind: keyof typeof BAD_INPUTS, mirror: string): RegExp {
  const rev = fixturePin().revision;
  const path = join(mirror, rev, 'schema.json').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return {
    truncated: new RegExp(`^revision ${rev}: ${path} is not valid JSON \\(.+\\); fetch it again$`),
    unresolvableRef: new RegExp(`^revision ${rev}: definition EchoRequestParams has unresolvable \\$ref "#/\\$defs/Missing"$`),
    underivableResult: new RegExp(`^revision ${rev}: definition PingRequest: cannot derive its result \\(no PingResultResponse, PingResult or EmptyResult\\)$`),
  }[kind];
}

/**
 * The CLI runs are child processes; they start before the in-process generation below so the
 * two overlap, and the tests that check them await their outcome.
 */
let checkRun: Promise<CliOutcome>;
let fixtureCliRun: Promise<CliOutcome[]>;
beforeAll(() => {
  checkRun = runCli(repoRoot, ['generate', '--check'], specMirrorDir());
  fixtureCliRun = (async () => {
    const root = cliRoot([fixturePin()]);
    try {
      const written = await runCli(root.root, ['generate'], fixturesDir);
      const clean = await runCli(root.root, ['generate', '--check'], fixturesDir);
      const types = join(root.root, 'generated', fixturePin().revision, 'types.ts');
      writeFileSync(types, `${readFileSync(types, 'utf8')}export type HandWritten = 1;\n`);
      const dirty = await runCli(root.root, ['generate', '--check'], fixturesDir);
      return [written, clean, dirty];
    } finally {
      root.remove();
    }
  })();
});

describe('generate() over the pinned revisions', () => {
  let first: GeneratedFiles;
  let second: GeneratedFiles;

  beforeAll(async () => {
    const mirror = specMirrorDir();
    first = (await generate({ mirror })).files;
    second = (await generate({ mirror })).files;
  }, 120_000);

  it('(a) is deterministic: two runs give the same paths, in the same order, with the same bytes', () => {
    expect([...second.keys()]).toEqual([...first.keys()]);
    expect([...first.keys()].filter((path) => first.get(path) !== second.get(path))).toEqual([]);
    // Six revisions of six files, ten shared files (contract, validator support, the validators 2026-07-28
    // shares with the tasks extension, index, all, latest, methods, change-notifications, senders, facts),
    // the three stable runtime-facing files under protocol/, and the tasks and apps extensions' six each.
    expect(first.size).toBe(61);
  });

  it('(b) diffOutput finds nothing in the committed tree, then each kind of drift in a copy', () => {
    const copy = join(scratch, 'generated-copy');
    cpSync(join(repoRoot, 'generated'), copy, { recursive: true });
    expect(diffOutput(first, copy)).toEqual([]);

    const errors = join(copy, '2025-06-18', 'errors.ts');
    const text = readFileSync(errors, 'utf8');
    const at = text.indexOf('-32700');
    writeFileSync(errors, `${text.slice(0, at)}-32701${text.slice(at + 6)}`);
    unlinkSync(join(copy, '2024-11-05', 'methods.ts'));
    writeFileSync(join(copy, 'draft', 'stale.ts'), 'export const stale = 1;\n');
    writeFileSync(join(copy, 'NOTES.txt'), 'hand-written\n');
    const latest = readFileSync(join(copy, 'latest.ts'), 'utf8');
    writeFileSync(join(copy, 'latest.ts'), latest.slice(latest.indexOf('\n') + 1));

    expect(diffOutput(first, copy)).toEqual([
      'missing: generated/2024-11-05/methods.ts',
      'differs from a fresh generation: generated/2025-06-18/errors.ts',
      'differs from a fresh generation: generated/latest.ts',
      'not produced by codegen: generated/NOTES.txt',
      'not produced by codegen: generated/draft/stale.ts',
      'lacks the generated-file header: generated/draft/stale.ts',
      'lacks the generated-file header: generated/latest.ts',
    ]);
  });
});

describe('(c) schema loading', () => {
  const pin = (revision: string) => {
    const found = readPins().find((p) => p.revision === revision);
    if (found === undefined) throw new Error(`spec/revisions.json pins no ${revision}`);
    return found;
  };

  async function rejection(promise: Promise<unknown>): Promise<Error> {
    try {
      await promise;
    } catch (error) {
      return error as Error;
    }
    throw new Error('expected a rejection');
  }

  it('a wrong sha256 is a one-line SpecSourceError naming the revision, the file and both hashes', async () => {
    const mirror = specMirrorDir();
    const wrong = { ...pin('2025-06-18'), sha256: 'f'.repeat(64) };
    const error = await rejection(loadSchema(wrong, { mirror }));
    expect(error).toBeInstanceOf(SpecSourceError);
    expect(error.message).not.toContain('\n');
    expect(error.message).toBe(
      `revision 2025-06-18: sha256 of ${join(mirror, '2025-06-18', 'schema.json')} is ${pin('2025-06-18').sha256}, spec/revisions.json pins ${'f'.repeat(64)}; fetch the pinned file again or re-pin the revision on purpose`,
    );
  });

  it('the right sha256 loads the document', async () => {
    const loaded = await loadSchema(pin('2025-06-18'), { mirror: specMirrorDir() });
    expect(sha256(loaded.bytes)).toBe(pin('2025-06-18').sha256);
    expect(Object.keys(loaded.document)).toContain('definitions');
  });

  it('a mirror without the revision names MCP_SPEC_MIRROR and the missing file', async () => {
    const error = await rejection(loadSchema(pin('2025-06-18'), { mirror: join(scratch, 'empty-mirror') }));
    expect(error).toBeInstanceOf(SpecSourceError);
    expect(error.message).toContain(`revision 2025-06-18: ${join(scratch, 'empty-mirror', '2025-06-18', 'schema.json')} does not exist; point MCP_SPEC_MIRROR at`);
    expect(error.message).not.toContain('\n');
  });

  it('a document in an unknown dialect is refused', async () => {
    const { mirror, pin: badPin } = badMirror('dialect', JSON.stringify({ $schema: 'https://json-schema.org/draft/2019-09/schema', $defs: {} }));
    const error = await rejection(loadSchema(badPin, { mirror }));
    expect(error).toBeInstanceOf(SpecSourceError);
    expect(error.message).toMatch(/^revision 2025-01-01: .+ declares unknown dialect "https:\/\/json-schema.org\/draft\/2019-09\/schema"; codegen understands /);
  });
});

describe('(d) broken inputs fail with a message naming what is wrong', () => {
  let temp: TempRoot;
  beforeAll(() => {
    temp = linkedRoot([fixturePin().revision]);
  });
  afterAll(() => temp.remove());

  it.each(Object.keys(BAD_INPUTS) as Array<keyof typeof BAD_INPUTS>)('generate() on %s input', async (kind) => {
    const { mirror, pin } = badMirror(`api-${kind}`, BAD_INPUTS[kind]());
    let caught: unknown;
    try {
      await generate({ pins: [pin], mirror, root: temp.root });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(kind === 'truncated' ? SpecSourceError : CodegenError);
    expect((caught as Error).message).toMatch(expectedMessage(kind, mirror));
  });

  it('the CLI exits 1 with that one line on stderr, and 2 on a usage error', async () => {
    const kinds = Object.keys(BAD_INPUTS) as Array<keyof typeof BAD_INPUTS>;
    const runs = kinds.map(async (kind) => {
      const { mirror, pin } = badMirror(`cli-${kind}`, BAD_INPUTS[kind]());
      const root = cliRoot([pin]);
      try {
        return { kind, mirror, outcome: await runCli(root.root, ['generate'], mirror) };
      } finally {
        root.remove();
      }
    });
    const usageRoot = cliRoot([fixturePin()]);
    const usage = runCli(usageRoot.root, ['generate', '--revision', '1999-12-31'], fixturesDir).finally(() => usageRoot.remove());
    for (const { kind, mirror, outcome } of await Promise.all(runs)) {
      expect(outcome.code, `${kind}: ${outcome.stderr}`).toBe(1);
      expect(outcome.stdout).toBe('');
      const lines = outcome.stderr.trimEnd().split('\n');
      expect(lines, kind).toHaveLength(1);
      expect(lines[0]!.replace(/^codegen: /, ''), kind).toMatch(expectedMessage(kind, mirror));
      expect(lines[0]).toMatch(/^codegen: /);
    }
    expect(await usage).toEqual({ code: 2, stdout: '', stderr: 'codegen: revision 1999-12-31 is not pinned in spec/revisions.json\n' });
  }, 60_000);
});

describe('(e) the CLI check', () => {
  it('`generate --check` exits 0 on the committed tree', async () => {
    const outcome = await checkRun;
    expect(outcome.stderr).toBe('');
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toMatch(/^codegen --check: generated\/ is current \(61 files, \d+ ms\)\n$/);
  }, 120_000);

  it('on a fixture root: generate writes, --check passes, then fails on a hand edit', async () => {
    const [written, clean, dirty] = await fixtureCliRun;
    expect(written!.code, written!.stderr).toBe(0);
    expect(written!.stdout).toMatch(/^codegen: wrote 15 files to generated\/ in \d+ ms\n$/);
    expect(clean!.code, clean!.stderr).toBe(0);
    expect(clean!.stdout).toMatch(/^codegen --check: generated\/ is current \(15 files, \d+ ms\)\n$/);
    expect(dirty!.code).toBe(1);
    expect(dirty!.stderr).toContain(`codegen --check: differs from a fresh generation: generated/${fixturePin().revision}/types.ts\n`);
    expect(dirty!.stderr).toContain('Run `make generate` and commit the result.');
  }, 120_000);
});
