// Copied from the @example 1 of runtime/features/host/terminal-text.ts by examples.test.ts; do not edit.
import { terminalSafe } from '../../../../../runtime/features/host/index.js';

terminalSafe('\u001b]0;owned\u0007plain \u001b[31mred\u001b[0m'); // 'plain red'
export {};
