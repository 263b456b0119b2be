/**
 * Form-mode elicitation for hosts: a server asks the user for a few values described by a flat
 * JSON Schema (`elicitation/create` without `mode: 'url'`), and the host's callback answers
 * accept with the values, decline or cancel. The same callback serves a 2025 session's request
 * and a 2026-07-28 input request, since the manager answers both through the client's handler.
 */
import type * as Stateful from '../../../generated/protocol/stateful.js';

/** The schema of one field: a string, number, boolean or enumeration (single or multiple choice). */
export type FormFieldSchema = Stateful.ElicitRequestFormParams['requestedSchema']['properties'][string];

/** What the host's callback is shown. */
export interface FormElicitationPrompt {
  readonly server: string;
  /** The server's message to the user. */
  readonly message: string;
  /** The flat object schema of the values asked for. */
  readonly requestedSchema: Stateful.ElicitRequestFormParams['requestedSchema'];
  /** Aborted when the server or the caller gave up on the request. */
  readonly signal: AbortSignal;
}

/** The user's answer: `accept` with the values, `decline`, or `cancel` (dismissed). */
export type FormElicitationAnswer =
  | { readonly action: 'accept'; readonly content: Record<string, string | number | boolean | string[]> }
  | { readonly action: 'decline' | 'cancel' };

/** Asks the user; setting it on the manager declares `elicitation.form`. */
export type FormElicitationHandler = (prompt: FormElicitationPrompt) => FormElicitationAnswer | Promise<FormElicitationAnswer>;

/** One field of a form, as a prompt shows it. */
export interface FormField {
  readonly name: string;
  readonly schema: FormFieldSchema;
  readonly required: boolean;
}

/**
 * The fields of a requested schema, in the order the server listed them.
 *
 * @example
 * ```ts
 * import { formFields } from 'mcpgen/host';
 *
 * formFields({ type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }); // [{ name: 'name', required: true, … }]
 * ```
 */
export function formFields(schema: FormElicitationPrompt['requestedSchema']): FormField[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties).map(([name, field]) => ({ name, schema: field, required: required.has(name) }));
}

/**
 * The values a field accepts when it is an enumeration (single or multiple choice), else undefined.
 *
 * @example
 * ```ts
 * import { choicesOf } from 'mcpgen/host';
 *
 * choicesOf({ type: 'string', oneOf: [{ const: 'red', title: 'Red' }, { const: 'blue', title: 'Blue' }] }); // ['red', 'blue']
 * ```
 */
export function choicesOf(field: FormFieldSchema): string[] | undefined {
  const value = field as {
    enum?: unknown;
    oneOf?: unknown;
    anyOf?: unknown;
    items?: { enum?: unknown; anyOf?: unknown; oneOf?: unknown };
  };
  const fromList = (list: unknown): string[] | undefined => {
    if (!Array.isArray(list)) return undefined;
    const values = list.map((item) => (typeof item === 'string' ? item : typeof (item as { const?: unknown })?.const === 'string' ? (item as { const: string }).const : undefined));
    return values.every((item): item is string => item !== undefined) ? values : undefined;
  };
  return fromList(value.enum) ?? fromList(value.oneOf) ?? fromList(value.anyOf) ?? fromList(value.items?.enum) ?? fromList(value.items?.anyOf) ?? fromList(value.items?.oneOf);
}

/**
 * Reads one typed answer for `field` from what the user typed, or explains why it does not fit.
 * An empty answer takes the field's default, or leaves an optional field out (`undefined`).
 *
 * @example
 * ```ts
 * import { parseFormAnswer } from 'mcpgen/host';
 *
 * parseFormAnswer({ name: 'age', required: true, schema: { type: 'integer', minimum: 0 } }, '42'); // { ok: true, value: 42 }
 * ```
 */
export function parseFormAnswer(field: FormField, text: string): { ok: true; value: string | number | boolean | string[] | undefined } | { ok: false; reason: string } {
  const schema = field.schema as { type?: string; default?: unknown; minimum?: number; maximum?: number; minLength?: number; maxLength?: number };
  const typed = text.trim();
  if (typed === '') {
    if (schema.default !== undefined) return { ok: true, value: schema.default as string | number | boolean | string[] };
    return field.required ? { ok: false, reason: 'an answer is required' } : { ok: true, value: undefined };
  }
  const choices = choicesOf(field.schema);
  if (schema.type === 'array') {
    const picked = typed.split(',').map((item) => item.trim()).filter((item) => item !== '').map((item) => byIndex(item, choices));
    const unknown = picked.filter((item) => choices !== undefined && !choices.includes(item));
    return unknown.length > 0 ? { ok: false, reason: `not among the choices: ${unknown.join(', ')}` } : { ok: true, value: picked };
  }
  if (choices !== undefined) {
    const chosen = byIndex(typed, choices);
    return choices.includes(chosen) ? { ok: true, value: chosen } : { ok: false, reason: `choose one of ${choices.join(', ')}` };
  }
  switch (schema.type) {
    case 'boolean': {
      const yes = ['y', 'yes', 'true'].includes(typed.toLowerCase());
      const no = ['n', 'no', 'false'].includes(typed.toLowerCase());
      return yes || no ? { ok: true, value: yes } : { ok: false, reason: 'answer y or n' };
    }
    case 'number':
    case 'integer': {
      const value = Number(typed);
      if (!Number.isFinite(value) || (schema.type === 'integer' && !Number.isInteger(value))) return { ok: false, reason: `expected ${schema.type === 'integer' ? 'an integer' : 'a number'}` };
      if (schema.minimum !== undefined && value < schema.minimum) return { ok: false, reason: `at least ${schema.minimum}` };
      if (schema.maximum !== undefined && value > schema.maximum) return { ok: false, reason: `at most ${schema.maximum}` };
      return { ok: true, value };
    }
    default: {
      if (schema.minLength !== undefined && typed.length < schema.minLength) return { ok: false, reason: `at least ${schema.minLength} characters` };
      if (schema.maxLength !== undefined && typed.length > schema.maxLength) return { ok: false, reason: `at most ${schema.maxLength} characters` };
      return { ok: true, value: typed };
    }
  }
}

/** A choice typed by its 1-based number (as prompts list them), unless the number is itself a choice. */
function byIndex(typed: string, choices: readonly string[] | undefined): string {
  if (choices === undefined || choices.includes(typed)) return typed;
  const index = Number(typed);
  return Number.isInteger(index) && index >= 1 && index <= choices.length ? choices[index - 1]! : typed;
}
