import type * as Stateful from '../../../generated/protocol/stateful.js';
import type { ClientRequestHandler } from '../client.js';
import type { BothEras, HandledRequests } from '../client-types.js';
import type { ProtocolTypesShape } from '../protocol-types.js';

import { isPlainObject } from '../../json-schema/json-values.js';
import { Method } from '../../../generated/methods.js';

type Elicit = typeof Method.ElicitationCreate;

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
 * import { Client, elicitationDefaults } from 'mcpgen';
 *
 * const client = new Client({ name: 'demo', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
 * client.setRequestHandler('elicitation/create', async (params) => {
 *   if (params.mode === 'url') return { action: 'decline' };
 *   const initial = elicitationDefaults(params.requestedSchema);
 *   return { action: 'accept', content: initial }; // once the user confirmed a form pre-filled with them
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
 * import { applyElicitationDefaults, Client } from 'mcpgen';
 *
 * const client = new Client({ name: 'demo', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
 * client.setRequestHandler('elicitation/create', (params) => {
 *   if (params.mode === 'url') return { action: 'decline' };
 *   const content = applyElicitationDefaults(params.requestedSchema, { name: 'Grace' }); // plus defaulted fields
 *   return { action: 'accept', content };
 * });
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
 * import { Client, withElicitationDefaults } from 'mcpgen';
 *
 * const client = new Client({ name: 'demo', version: '1.0.0' });
 * client.setRequestHandler('elicitation/create', withElicitationDefaults(async () => ({ action: 'accept', content: {} })));
 * ```
 */
export function withElicitationDefaults<T extends ProtocolTypesShape = BothEras>(handler: ClientRequestHandler<Elicit & keyof HandledRequests<T>, T>): ClientRequestHandler<Elicit & keyof HandledRequests<T>, T> {
  // Every revision's elicitation params and result have the members read here; the both-eras view types them.
  const inner = handler as unknown as ClientRequestHandler<Elicit>;
  const wrapped: ClientRequestHandler<Elicit> = async (params, context) => {
    const result = await inner(params, context);
    if (result.action !== 'accept' || params.mode === 'url' || !('requestedSchema' in params)) return result;
    return { ...result, content: applyElicitationDefaults(params.requestedSchema, result.content ?? {}) };
  };
  return wrapped as unknown as ClientRequestHandler<Elicit & keyof HandledRequests<T>, T>;
}
