/**
 * Type-checks every `@example` of the MCP Apps modules (runtime/features/apps) against the real
 * sources, with the package's subpaths mapped onto them, so that the documented usage cannot
 * drift from the API.
 */
import { describe, expect, it } from 'vitest';
import { commentExamples, typeCheckExamples } from '../../doc-examples.js';

const examples = commentExamples(['runtime/features/apps']);

describe('apps doc examples', () => {
  it('exist for the public API and type-check', () => {
    expect(examples.length).toBeGreaterThanOrEqual(15);
    expect(typeCheckExamples(examples, 'apps-example')).toEqual([]);
  }, 120_000);
});
