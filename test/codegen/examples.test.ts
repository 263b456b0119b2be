/**
 * The specification's own example messages (`2026-07-28/examples/<Type>/*.json`, folder name =
 * definition name) against the generated validators of every revision that has the definition.
 * Rejections are only allowed where a table below names the schema change behind them.
 */
import { describe, expect, it } from 'vitest';
import type { Validator } from '../../generated/contract.js';
import * as r20241105 from '../../generated/2024-11-05/index.js';
import * as r20250326 from '../../generated/2025-03-26/index.js';
import * as r20250618 from '../../generated/2025-06-18/index.js';
import * as r20251125 from '../../generated/2025-11-25/index.js';
import * as r20260728 from '../../generated/2026-07-28/index.js';
import * as rDraft from '../../generated/draft/index.js';
import { issues, readExamples, requireValidator, validatorOf, type SpecExample } from './spec-examples.js';

const EXAMPLES_REVISION = '2026-07-28';
const examples: SpecExample[] = readExamples(EXAMPLES_REVISION);

interface ExpectedIssue {
  readonly instancePath: string;
  readonly keyword: string;
  readonly params?: Readonly<Record<string, unknown>>;
}

/** An example an older revision must reject, the issue it must report, and why. */
interface ExpectedRejection {
  readonly example: string;
  readonly issue: ExpectedIssue;
  /** The schema change between that revision and 2026-07-28 that explains the rejection. */
  readonly change: string;
}

const SAMPLING_TOOL_USE =
  'sampling tool use arrived in 2025-11-25: SamplingMessage.content and CreateMessageResult.content gained ToolUseContent, ToolResultContent and ' +
  'arrays of SamplingMessageContentBlock; before that `content` is a single TextContent | ImageContent (| AudioContent from 2025-03-26)';
const ARRAY_STRUCTURED_CONTENT =
  'CallToolResult.structuredContent is `type: object` from its arrival in 2025-06-18 through 2025-11-25; 2026-07-28 drops the type (any JSON value, arrays included)';
const ARRAY_OUTPUT_SCHEMA =
  'Tool.outputSchema declares `type: {const: "object"}` from its arrival in 2025-06-18 through 2025-11-25; 2026-07-28 accepts any JSON Schema, e.g. `type: "array"`';
const EMBEDDED_REQUEST =
  'in 2025-11-25 server-to-client requests are full JSON-RPC requests (required id and jsonrpc); 2026-07-28 embeds CreateMessageRequest, ' +
  'ElicitRequest and ListRootsRequest in InputRequiredResult.inputRequests, requiring only method (and params), so the example has no envelope';
const URL_ELICITATION_ID =
  'URL-mode elicitation arrived in 2025-11-25 with a required elicitationId (correlating notifications/elicitation/complete); 2026-07-28 removed ' +
  'that notification and the field';

const SAMPLING_REJECTIONS: readonly ExpectedRejection[] = [
  { example: 'CreateMessageResult/tool-use-response.json', issue: { instancePath: '/content', keyword: 'anyOf' }, change: SAMPLING_TOOL_USE },
  { example: 'SamplingMessage/multiple-content-blocks.json', issue: { instancePath: '/content', keyword: 'anyOf' }, change: SAMPLING_TOOL_USE },
];
const STRUCTURED_OUTPUT_REJECTIONS: readonly ExpectedRejection[] = [
  {
    example: 'CallToolResult/result-with-array-structured-content.json',
    issue: { instancePath: '/structuredContent', keyword: 'type', params: { type: 'object' } },
    change: ARRAY_STRUCTURED_CONTENT,
  },
  {
    example: 'Tool/tool-with-array-output-schema.json',
    issue: { instancePath: '/outputSchema/type', keyword: 'const', params: { allowedValue: 'object' } },
    change: ARRAY_OUTPUT_SCHEMA,
  },
];

/**
 * Every example an older revision rejects. Examples whose definition the revision lacks are not
 * checked there; everything else must pass.
 */
const EXPECTED_REJECTIONS = {
  '2024-11-05': SAMPLING_REJECTIONS,
  '2025-03-26': SAMPLING_REJECTIONS,
  '2025-06-18': [...SAMPLING_REJECTIONS, ...STRUCTURED_OUTPUT_REJECTIONS],
  '2025-11-25': [
    ...STRUCTURED_OUTPUT_REJECTIONS,
    { example: 'CreateMessageRequest/sampling-request.json', issue: { instancePath: '', keyword: 'required', params: { missingProperty: 'id' } }, change: EMBEDDED_REQUEST },
    { example: 'ElicitRequest/elicitation-request.json', issue: { instancePath: '', keyword: 'required', params: { missingProperty: 'id' } }, change: EMBEDDED_REQUEST },
    // This example carries an `id` but still no `jsonrpc`.
    { example: 'ListRootsRequest/list-roots-request.json', issue: { instancePath: '', keyword: 'required', params: { missingProperty: 'jsonrpc' } }, change: EMBEDDED_REQUEST },
    {
      example: 'ElicitRequestURLParams/elicit-sensitive-data.json',
      issue: { instancePath: '', keyword: 'required', params: { missingProperty: 'elicitationId' } },
      change: URL_ELICITATION_ID,
    },
  ],
} as const satisfies Record<string, readonly ExpectedRejection[]>;

/**
 * How many examples each older revision has a definition for. Guards against the checks above
 * silently thinning out when a definition stops being exported.
 */
const CHECKED_COUNTS: Readonly<Record<keyof typeof EXPECTED_REJECTIONS, number>> = {
  '2024-11-05': 68,
  '2025-03-26': 69,
  '2025-06-18': 77,
  '2025-11-25': 99,
};

const OLDER_MODULES: ReadonlyArray<[keyof typeof EXPECTED_REJECTIONS, object]> = [
  ['2024-11-05', r20241105],
  ['2025-03-26', r20250326],
  ['2025-06-18', r20250618],
  ['2025-11-25', r20251125],
];
const STATELESS_MODULES: ReadonlyArray<[string, object]> = [
  ['2026-07-28', r20260728],
  ['draft', rDraft],
];

/**
 * The one official example that is wrong: 2026-07-28's ReadResourceResult requires `ttlMs` and
 * `cacheScope` (caching hints every cacheable result must carry), but this response omits both.
 */
const WRONG_EXAMPLE = 'ReadResourceResultResponse/read-resource-result-response.json';

function outcome(validate: Validator, value: unknown): { valid: boolean; issues: ReturnType<typeof issues> } {
  const valid = validate(value);
  return { valid, issues: valid ? [] : issues(validate) };
}

function exampleById(id: string): SpecExample {
  const found = examples.find((e) => e.id === id);
  if (found === undefined) throw new Error(`no official example ${id} under ${EXAMPLES_REVISION}/examples`);
  return found;
}

it('the mirror holds the 2026-07-28 examples', () => {
  expect(examples.length).toBe(129);
  expect(new Set(examples.map((e) => e.type)).size).toBe(88);
});

describe.each(STATELESS_MODULES)('%s validators accept the official examples', (revision, mod) => {
  it('has a validator for every example folder', () => {
    expect(examples.filter((e) => validatorOf(mod, e.type) === undefined).map((e) => e.type)).toEqual([]);
  });

  it.each(examples.filter((e) => e.id !== WRONG_EXAMPLE).map((e) => [e.id, e] as const))('%s', (_id, example) => {
    expect(outcome(requireValidator(mod, example.type), example.value)).toEqual({ valid: true, issues: [] });
  });

  it(`rejects ${WRONG_EXAMPLE} for lacking ttlMs and cacheScope, and nothing else`, () => {
    const validate = requireValidator(mod, 'ReadResourceResultResponse');
    const response = structuredClone(exampleById(WRONG_EXAMPLE).value) as { result: Record<string, unknown> };
    // ajv stops at the first missing property, so the two are reported one at a time.
    expect(validate(response)).toBe(false);
    expect(issues(validate)).toContainEqual({ instancePath: '/result', keyword: 'required', params: { missingProperty: 'cacheScope' } });
    response.result.cacheScope = 'private';
    expect(validate(response)).toBe(false);
    expect(issues(validate)).toContainEqual({ instancePath: '/result', keyword: 'required', params: { missingProperty: 'ttlMs' } });
    response.result.ttlMs = 0;
    expect(outcome(validate, response)).toEqual({ valid: true, issues: [] });
    // The bare result is rejected the same way by the ReadResourceResult validator.
    const readResult = requireValidator(mod, 'ReadResourceResult');
    expect(readResult((exampleById(WRONG_EXAMPLE).value as { result: unknown }).result)).toBe(false);
    expect(issues(readResult)).toContainEqual({ instancePath: '', keyword: 'required', params: { missingProperty: 'cacheScope' } });
  });
});

describe.each(OLDER_MODULES)('%s validators on the 2026-07-28 examples', (revision, mod) => {
  const expected: readonly ExpectedRejection[] = EXPECTED_REJECTIONS[revision];
  const checked = examples.filter((e) => validatorOf(mod, e.type) !== undefined);

  it(`checks the ${CHECKED_COUNTS[revision]} examples whose definition exists in ${revision}`, () => {
    expect(checked.length).toBe(CHECKED_COUNTS[revision]);
  });

  it('names only examples that exist and that the revision can check', () => {
    for (const rejection of expected) {
      const example = exampleById(rejection.example);
      expect(validatorOf(mod, example.type), `${revision} has no ${example.type} for ${rejection.example}`).toBeDefined();
      expect(rejection.change.length).toBeGreaterThan(40);
    }
  });

  it.each(checked.map((e) => [e.id, e] as const))('%s', (id, example) => {
    const validate = requireValidator(mod, example.type);
    const rejection = expected.find((r) => r.example === id);
    const result = outcome(validate, example.value);
    if (rejection === undefined) {
      expect(result, `${revision} rejects ${id}, which no EXPECTED_REJECTIONS entry explains`).toEqual({ valid: true, issues: [] });
    } else {
      expect(result.valid, `${revision} now accepts ${id}; expected a rejection because ${rejection.change}`).toBe(false);
      expect(result.issues).toContainEqual(expect.objectContaining({ ...rejection.issue, params: expect.objectContaining(rejection.issue.params ?? {}) }));
    }
  });
});
