/**
 * Type-checks every `@example` of the auth modules (runtime/features/auth, runtime/features/auth/node) against
 * the real sources, with the package's subpaths mapped onto them, so that the documented usage
 * cannot drift from the API.
 */
import { describe, expect, it } from 'vitest';
import { commentExamples, typeCheckExamples } from '../../doc-examples.js';

const examples = commentExamples(['runtime/features/auth', 'runtime/features/auth/node']);

describe('auth doc examples', () => {
  it('exist for the public API and type-check', () => {
    expect(examples.length).toBeGreaterThanOrEqual(10);
    expect(typeCheckExamples(examples, 'auth-example')).toEqual([]);
  }, 60_000);
});
