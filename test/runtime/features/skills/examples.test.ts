/**
 * Type-checks every `@example` of the skills modules (runtime/features/skills and its node/
 * folder) against the real sources, with the package's subpaths mapped onto them, so that the
 * documented usage cannot drift from the API.
 */
import { expect, it } from 'vitest';
import { commentExamples, typeCheckExamples } from '../../doc-examples.js';

const examples = commentExamples(['runtime/features/skills', 'runtime/features/skills/node']);

it('the public API of mcpgen/skills has examples, and they type-check', () => {
  expect(examples.length).toBeGreaterThanOrEqual(5);
  expect(typeCheckExamples(examples, 'skills-example')).toEqual([]);
}, 120_000);
