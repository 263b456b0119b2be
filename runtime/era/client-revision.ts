/**
 * The view of a stateless revision the Client binds to its engine. It differs from the
 * generated module in one respect the spec asks of clients: a result without `resultType`
 * (an older or lax server) is a complete result, so the result validators fill the field in
 * as `complete` before checking, and callers see it too.
 */
import type { MethodInfo, RevisionModule, Validator } from '../core/contract.js';
import { isJsonObject } from '../core/jsonrpc.js';

const views = new WeakMap<RevisionModule, RevisionModule>();

/** The Client's view of stateless revision `module` (one per module, built once). */
export function clientView(module: RevisionModule): RevisionModule {
  let view = views.get(module);
  if (view === undefined) {
    const methods: Record<string, MethodInfo> = {};
    for (const [name, info] of Object.entries(module.methods)) {
      methods[name] = info.kind === 'request' && info.result !== null && !info.embedded ? { ...info, result: defaultingResultType(info.result) } : info;
    }
    view = { ...module, methods };
    views.set(module, view);
  }
  return view;
}

function defaultingResultType(validate: Validator): Validator {
  const check = ((value: unknown): boolean => {
    if (isJsonObject(value) && value.resultType === undefined) {
      (value as Record<string, unknown>).resultType = 'complete';
    }
    const ok = validate(value);
    check.errors = ok ? null : validate.errors;
    return ok;
  }) as Validator;
  return check;
}
