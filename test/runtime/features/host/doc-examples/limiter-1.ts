// Copied from the @example 1 of runtime/features/host/limiter.ts by examples.test.ts; do not edit.
import { Limiter } from '../../../../../runtime/features/host/index.js';

const limiter = new Limiter(3);
const pages = await Promise.all(['a', 'b', 'c', 'd'].map((name) => limiter.run(() => fetch(`https://example.com/${name}`))));
export {};
