/**
 * The other JavaScript runtimes, all from npm devDependencies: Bun and Deno binaries, found in
 * their platform packages so that no install script needs to have run (npm may skip them), and
 * the record of which runtime ran what.
 */
import { execFile } from 'node:child_process';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from '../package/packed.js';
import { writeReport } from '../package/report.js';

const run = promisify(execFile);
const MODULES = path.join(ROOT, 'node_modules');

/** Stores what a runtime did in .cache/reports/runtime-<name>.json. */
export async function recordRuntime(name: string, values: Record<string, unknown>): Promise<void> {
  await writeReport(`runtime-${name}`, values);
}

async function isExecutable(file: string): Promise<boolean> {
  try {
    const info = await stat(file);
    // The wrapper packages ship small placeholder scripts where the binary goes until their
    // postinstall has run; a real binary is megabytes.
    return info.isFile() && info.size > 1_000_000;
  } catch {
    return false;
  }
}

async function firstWorking(candidates: string[], name: string): Promise<{ binary: string; version: string }> {
  for (const binary of candidates) {
    if (!(await isExecutable(binary))) continue;
    const { stdout } = await run(binary, ['--version']);
    return { binary, version: stdout.split('\n')[0]!.trim() };
  }
  throw new Error(`no ${name} binary in node_modules (looked at ${candidates.map((file) => path.relative(ROOT, file)).join(', ')}); run make`);
}

async function platformPackages(scope: string, prefix: string): Promise<string[]> {
  const names = await readdir(path.join(MODULES, scope)).catch(() => [] as string[]);
  return names.filter((name) => name.startsWith(prefix)).map((name) => path.join(MODULES, scope, name));
}

/** The Bun binary: @oven/bun-<os>-<arch> (where npm put it), or bun/bin after bun's postinstall moved it. */
export async function bun(): Promise<{ binary: string; version: string }> {
  const arch = process.arch === 'arm64' ? 'aarch64' : process.arch;
  const packages = await platformPackages('@oven', `bun-${process.platform}-${arch}`);
  return firstWorking([...packages.sort().map((dir) => path.join(dir, 'bin/bun')), path.join(MODULES, 'bun/bin/bun.exe')], 'bun');
}

/** The Deno binary: @deno/<os>-<arch>[-glibc], or deno/deno after deno's postinstall copied it. */
export async function deno(): Promise<{ binary: string; version: string }> {
  const os = process.platform === 'darwin' ? 'darwin' : process.platform;
  const packages = await platformPackages('@deno', `${os}-${process.arch}`);
  return firstWorking([...packages.sort().map((dir) => path.join(dir, 'deno')), path.join(MODULES, 'deno/deno')], 'deno');
}
