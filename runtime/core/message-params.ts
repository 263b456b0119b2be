/**
 * Reading and writing the `params` member: its validation against a method entry, its `_meta`,
 * and the progress members the engine adds or reads.
 */
import { isJsonObject } from './jsonrpc.js';
import type { ResolvedMethod } from './method-table.js';
import type { Progress } from './pending-requests.js';
import type { Meta, Params } from './request-context.js';
import { checkValue, type IssueReport } from './validation.js';

/**
 * Checks `params` against the method: absent params fail only when the method requires them,
 * and the validator runs only on params that are present.
 */
export function paramsIssues(info: ResolvedMethod, params: unknown): IssueReport[] | null {
  if (params === undefined) {
    return info.paramsRequired ? [{ path: '', message: 'is required', keyword: 'required' }] : null;
  }
  return checkValue(info.params, params);
}

/** The `_meta` object of `params`, if there is one. */
export function metaOf(params: unknown): Meta | undefined {
  return isJsonObject(params) && isJsonObject(params._meta) ? params._meta : undefined;
}

/** A copy of `params` whose `_meta.progressToken` is `token`; other `_meta` members are kept. */
export function withProgressToken(params: Params | undefined, token: number): Params {
  const meta = isJsonObject(params?._meta) ? params._meta : {};
  return { ...params, _meta: { ...meta, progressToken: token } };
}

/** The progress update carried by progress notification params (unset members left out). */
export function progressOf(params: { readonly [key: string]: unknown }): Progress {
  const progress: { progress: number; total?: number; message?: string } = { progress: params.progress as number };
  if (typeof params.total === 'number') {
    progress.total = params.total;
  }
  if (typeof params.message === 'string') {
    progress.message = params.message;
  }
  return progress;
}
