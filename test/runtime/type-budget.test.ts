import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const run = promisify(execFile);
const project = fileURLToPath(new URL('./fixtures/type-budget/tsconfig.json', import.meta.url));
const tsc = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url));

// Measured at 3,143 when the typed handler maps landed; the budget leaves room for growth but
// catches a change that makes handler typing blow up (deep conditional types, per-call unions).
const INSTANTIATION_BUDGET = 6_000;

it('type-checks a 50-handler server within the instantiation budget', async () => {
  const { stdout } = await run(process.execPath, [tsc, '-p', project, '--extendedDiagnostics'], { maxBuffer: 1 << 20 });
  const match = /Instantiations:\s+(\d+)/.exec(stdout);
  expect(match, stdout).not.toBeNull();
  const instantiations = Number(match![1]);
  expect(instantiations).toBeGreaterThan(0);
  expect(instantiations).toBeLessThan(INSTANTIATION_BUDGET);
}, 60_000);
