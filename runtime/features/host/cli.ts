#!/usr/bin/env node
/** The `mcpgen` executable (the package's bin); everything it does is in cli-run.ts. */
import { runCli } from './cli-run.js';

process.exitCode = await runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, cwd: process.cwd() });
