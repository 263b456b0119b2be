// Copied from the @example 1 of runtime/features/host/deadline.ts by examples.test.ts; do not edit.
import { SdkError } from '../../../../../runtime/index.js';
import { withDeadline } from '../../../../../runtime/features/host/index.js';

const controller = new AbortController();
const body = await withDeadline(fetch('https://example.com').then((response) => response.text()), 5_000, controller.signal, () => new SdkError('REQUEST_TIMEOUT', 'no page within 5 s'));
export {};
