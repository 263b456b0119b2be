/**
 * The small hand-written fixture schema under test/codegen/fixtures/ and throw-away repository
 * roots that codegen can run against.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { readPins, type RevisionPin } from '../../codegen/spec-source.js';
import { repoRoot } from './spec-examples.js';

/** Holds `<revision>/schema.json` (a mirror) and `spec/revisions.json` (its pin). */
export const fixturesDir = fileURLToPath(new URL('./fixtures/', import.meta.url));
export const fixturePinsFile = join(fixturesDir, 'spec', 'revisions.json');

export function fixturePin(): RevisionPin {
  const [pin] = readPins(fixturesDir);
  if (pin === undefined) throw new Error(`${fixturePinsFile} pins no revision`);
  return pin;
}

export interface TempRoot {
  readonly root: string;
  readonly remove: () => void;
}

/**
 * A repository root for `generate({ root })`: codegen/ (templates, and the sources hashed into
 * MANIFEST.json) links to the real one; spec/patches holds an empty patch list per revision.
 */
export function linkedRoot(revisions: readonly string[]): TempRoot {
  const root = mkdtempSync(join(tmpdir(), 'mcpgen-root-'));
  symlinkSync(join(repoRoot, 'codegen'), join(root, 'codegen'), 'dir');
  mkdirSync(join(root, 'spec', 'patches'), { recursive: true });
  for (const rev of revisions) writeFileSync(join(root, 'spec', 'patches', `${rev}.json`), '[]\n');
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/**
 * A root the CLI can run from: a copy of codegen/ (spec-source computes the root from its own
 * file location), package.json, node_modules linked, and the given pins with empty patch lists.
 */
export function cliRoot(pins: readonly RevisionPin[]): TempRoot {
  const root = mkdtempSync(join(tmpdir(), 'mcpgen-cli-'));
  cpSync(join(repoRoot, 'codegen'), join(root, 'codegen'), { recursive: true });
  cpSync(join(repoRoot, 'package.json'), join(root, 'package.json'));
  symlinkSync(join(repoRoot, 'node_modules'), join(root, 'node_modules'), 'dir');
  mkdirSync(join(root, 'spec', 'patches'), { recursive: true });
  writeFileSync(join(root, 'spec', 'revisions.json'), `${JSON.stringify({ revisions: pins }, null, 2)}\n`);
  for (const pin of pins) writeFileSync(join(root, 'spec', 'patches', `${pin.revision}.json`), '[]\n');
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** What a codegen CLI run printed and how it exited. */
export interface CliOutcome {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

const execFileAsync = promisify(execFile);

/** Runs `codegen/cli.ts` under tsx from `root` (see {@link cliRoot}) and reports its exit code and output. */
export async function runCli(root: string, args: readonly string[], mirror: string): Promise<CliOutcome> {
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, ['--import', 'tsx', join(root, 'codegen', 'cli.ts'), ...args], {
      cwd: root,
      env: { ...process.env, MCP_SPEC_MIRROR: mirror },
      maxBuffer: 1 << 24,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof failed.code !== 'number') throw error;
    return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}
