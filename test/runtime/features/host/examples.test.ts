/**
 * Type-checks every `@example` of the host modules (runtime/features/host) against the real
 * sources, with the package's subpaths mapped onto them, so that the documented usage cannot
 * drift from the API.
 */
import { describe, expect, it } from 'vitest';
import { commentExamples, typeCheckExamples } from '../../doc-examples.js';

const examples = commentExamples(['runtime/features/host']);

describe('host doc examples', () => {
  it('exist for the public API and type-check', () => {
    // One per documented host export: the CLI, the configuration, the manager and its helpers.
    expect(examples.length).toBeGreaterThanOrEqual(20);
    expect(typeCheckExamples(examples, 'host-example')).toEqual([]);
  }, 120_000);
});
