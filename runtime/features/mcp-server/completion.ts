import { ErrorCodes } from '../../../generated/protocol/error-codes.js';
import type * as Stateful from '../../../generated/protocol/stateful.js';
import { ProtocolError } from '../../core/errors.js';
import type { McpSession } from './session.js';

/** Completions as a callback returns them: the values, or the values with a total and a more-flag. */
export type CompletionValues = readonly string[] | { readonly values: readonly string[]; readonly total?: number; readonly hasMore?: boolean };

/** What a completion callback knows besides the partial value. */
export interface CompletionContext {
  /** Arguments the user already filled in (`context.arguments` of the request, 2025-06-18 on). */
  readonly arguments: Readonly<Record<string, string>>;
  readonly session: McpSession;
}

/** Suggests values for one prompt argument or template variable, given what the user typed so far. */
export type Completer = (value: string, context: CompletionContext) => CompletionValues | Promise<CompletionValues>;

/** The completion page's ceiling on values per response. */
const MAX_VALUES = 100;

/** Where `completion/complete` finds completers: by prompt name or by template text. */
export interface CompletionSources {
  prompt(name: string, session: McpSession): { readonly complete?: Readonly<Record<string, Completer | undefined>> } | undefined;
  template(uriTemplate: string, session: McpSession): { readonly complete?: Readonly<Record<string, Completer | undefined>> } | undefined;
}

/**
 * Answers `completion/complete`. An unknown prompt or template is INVALID_PARAMS (-32602), as
 * the completion page asks; an argument without a completer completes to nothing.
 */
export async function complete(params: Stateful.CompleteRequestParams, session: McpSession, sources: CompletionSources): Promise<Stateful.CompleteResult> {
  const { ref } = params;
  const target = ref.type === 'ref/prompt' ? sources.prompt(ref.name, session) : sources.template(ref.uri, session);
  if (target === undefined) {
    const what = ref.type === 'ref/prompt' ? `prompt ${JSON.stringify(ref.name)}` : `resource template ${JSON.stringify(ref.uri)}`;
    throw new ProtocolError(ErrorCodes.INVALID_PARAMS, `Cannot complete: unknown ${what}`);
  }
  const completers = target.complete;
  // Own properties only: an argument named `constructor` must not reach Object's.
  const completer = completers !== undefined && Object.hasOwn(completers, params.argument.name) ? completers[params.argument.name] : undefined;
  if (completer === undefined) return { completion: { values: [] } };
  const answer = await completer(params.argument.value, { arguments: params.context?.arguments ?? {}, session });
  const detailed = isArray(answer) ? { values: answer } : answer;
  const { values } = detailed;
  const total = detailed.total ?? values.length;
  const hasMore = detailed.hasMore === true || values.length > MAX_VALUES;
  return { completion: { values: values.slice(0, MAX_VALUES), total, hasMore } };
}

// Array.isArray does not narrow readonly arrays out of a union.
function isArray(value: CompletionValues): value is readonly string[] {
  return Array.isArray(value);
}
