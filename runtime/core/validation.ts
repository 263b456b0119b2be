import type { Validator } from './contract.js';
import { messageOf } from './errors.js';

/** One validation failure as reported to users and peers. */
export interface IssueReport {
  /** JSON Pointer of the failing value, relative to the checked member ('' is the member itself). */
  readonly path: string;
  /** Why it failed, e.g. `must be string`. */
  readonly message: string;
  /** The JSON Schema keyword that failed, '' when unknown. */
  readonly keyword: string;
}

/** Reports beyond this many are dropped so that an error reply stays small. */
export const MAX_REPORTED_ISSUES = 10;

/**
 * Runs `validator` on `value` and returns null when it passes, or the failures otherwise.
 * A validator that throws counts as a failure rather than escaping, because custom validators
 * are user code running inside message dispatch.
 */
export function checkValue(validator: Validator, value: unknown): IssueReport[] | null {
  let ok: boolean;
  try {
    ok = validator(value);
  } catch (error) {
    return [{ path: '', message: `validator threw: ${messageOf(error)}`, keyword: '' }];
  }
  if (ok) {
    return null;
  }
  const issues = (validator.errors ?? []).slice(0, MAX_REPORTED_ISSUES).map((issue) => ({
    path: issue.instancePath,
    message: issue.message,
    keyword: issue.keyword,
  }));
  return issues.length > 0 ? issues : [{ path: '', message: 'is invalid', keyword: '' }];
}

/**
 * Renders issues as `/name must be string; /x must be number`. An issue at the root of the
 * checked member is labelled with `rootLabel` (e.g. `params must have required property 'name'`),
 * because an empty pointer reads as nothing at all.
 */
export function describeIssues(issues: readonly IssueReport[], rootLabel: string): string {
  return issues
    .map((issue) => `${issue.path === '' ? rootLabel : issue.path} ${issue.message}`)
    .join('; ');
}
