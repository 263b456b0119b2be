import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const run = promisify(execFile);
const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/type-budget/${name}`, import.meta.url));
const tsc = fileURLToPath(new URL('../../../node_modules/typescript/bin/tsc', import.meta.url));

// Measured at about 330 instantiations for 50 handlers (under 7 each) when the generic handler
// maps landed; the budget leaves room for growth but catches handler typing that blows up
// (deep conditional types, per-call unions over every method).
const FIFTY_HANDLER_BUDGET = 2_500;
// The whole runtime's types, imported once; a cap against an accidental explosion there too.
const BASELINE_CAP = 40_000;

async function instantiations(project: string): Promise<number> {
  const { stdout } = await run(process.execPath, [tsc, '-p', fixture(project), '--extendedDiagnostics'], { maxBuffer: 1 << 20 });
  const match = /Instantiations:\s+(\d+)/.exec(stdout);
  expect(match, stdout).not.toBeNull();
  return Number(match![1]);
}

it('type-checks a 50-handler server within the instantiation budget', async () => {
  const [baseline, full] = await Promise.all([instantiations('tsconfig.baseline.json'), instantiations('tsconfig.json')]);
  expect(baseline).toBeGreaterThan(0);
  expect(baseline).toBeLessThan(BASELINE_CAP);
  expect(full - baseline).toBeGreaterThan(0);
  expect(full - baseline).toBeLessThan(FIFTY_HANDLER_BUDGET);
}, 120_000);
