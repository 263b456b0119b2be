// Copied from the @example 1 of runtime/features/host/config-loader.ts by examples.test.ts; do not edit.
import { loadConfig } from '../../../../../runtime/features/host/index.js';

const config = loadConfig({ cwd: process.cwd() });
for (const problem of config.diagnostics) console.warn(`${problem.file ?? '(code)'} ${problem.path}: ${problem.message}`);
console.log(config.servers.map((server) => `${server.name} (${server.scope})`));
export {};
