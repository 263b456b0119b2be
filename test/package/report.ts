/**
 * Numbers the package and runtime tests measure (tarball size, bundle sizes, which runtimes
 * ran), printed with the test output and kept in .cache/reports/<name>.json for release notes.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ROOT } from './packed.js';

/** Prints `values` under `name` and stores them in .cache/reports/<name>.json. */
export async function writeReport(name: string, values: Record<string, unknown>): Promise<void> {
  const dir = path.join(ROOT, '.cache/reports');
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, `${name}.json`), `${JSON.stringify(values, null, 2)}\n`);
  console.log(`[${name}] ${JSON.stringify(values)}`);
}
