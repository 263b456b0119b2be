import type * as Stateful from '../../../generated/protocol/stateful.js';
import type { ClientRequestHandler } from '../client.js';
import { isPlainObject } from '../../core/json-schema/json-values.js';

/** A value an elicitation form field can hold. */
export type ElicitationValue = string | number | boolean | string[];

/** The form schema of an elicitation request. */
export type RequestedSchema = Stateful.ElicitRequestFormParams['requestedSchema'];

/**
 * The defaults a form's fields declare, to pre-fill the form with (the elicitation page asks
 * clients that support defaults to do so).
 *
 * @example
 * ```ts
 * client.setRequestHandler('elicitation/create', async (params) => {
 *   if (params.mode === 'url') return { action: 'decline' };
 *   const initial = elicitationDefaults(params.requestedSchema);
 *   return { action: 'accept', content: await showForm(params.requestedSchema, initial) };
 * });
 * ```
 */
export function elicitationDefaults(schema: RequestedSchema): Record<string, ElicitationValue> {
  const defaults: Record<string, ElicitationValue> = {};
  for (const [name, field] of Object.entries(schema.properties ?? {})) {
    const value = isPlainObject(field) ? field.default : undefined;
    if (value !== undefined) defaults[name] = (Array.isArray(value) ? [...value] : value) as ElicitationValue;
  }
  return defaults;
}

/**
 * `content` with the schema's default for every field it leaves out.
 *
 * @example
 * ```ts
 * const content = applyElicitationDefaults(params.requestedSchema, { name: 'Grace' }); // plus defaulted fields
 * ```
 */
export function applyElicitationDefaults(schema: RequestedSchema, content: Readonly<Record<string, ElicitationValue>> = {}): Record<string, ElicitationValue> {
  return { ...elicitationDefaults(schema), ...content };
}

/**
 * Wraps an `elicitation/create` handler so that accepted form content gets the schema's
 * defaults for the fields the user left empty.
 *
 * @example
 * ```ts
 * client.setRequestHandler('elicitation/create', withElicitationDefaults(async () => ({ action: 'accept', content: {} })));
 * ```
 */
export function withElicitationDefaults(handler: ClientRequestHandler<'elicitation/create'>): ClientRequestHandler<'elicitation/create'> {
  return async (params, context) => {
    const result = await handler(params, context);
    if (result.action !== 'accept' || params.mode === 'url' || !('requestedSchema' in params)) return result;
    return { ...result, content: applyElicitationDefaults(params.requestedSchema, result.content ?? {}) };
  };
}
