// Copied from the @example 1 of runtime/features/host/config.ts by examples.test.ts; do not edit.
import { parseServerEntry, type ConfigDiagnostic } from '../../../../../runtime/features/host/index.js';

const problems: ConfigDiagnostic[] = [];
const config = parseServerEntry('db', { command: 'db-mcp', args: ['--dsn', '${DSN}'] }, { scope: 'programmatic' }, '$.db', process.env, problems);
export {};
