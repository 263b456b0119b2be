// Copied from the @example 1 of runtime/features/host/cli-args.ts by examples.test.ts; do not edit.
import { splitCommandLine } from '../../../../../runtime/features/host/index.js';

splitCommandLine(`npx -y "@scope/server" --root '/my files'`); // ['npx', '-y', '@scope/server', '--root', '/my files']
export {};
