// Copied from the @example 1 of runtime/features/host/cli-run.ts by examples.test.ts; do not edit.
import { runCli } from '../../../../../runtime/features/host/index.js';

process.exitCode = await runCli(['tools', '--json'], { stdout: process.stdout, stderr: process.stderr });
export {};
