/**
 * Renders a ProtocolDiff as Markdown for people: a summary table, then one headed section per
 * kind of change (sections without changes are left out), in the diff's stable order.
 */
import type { CapabilityGate, FieldChange, MethodChange, MethodSummary, ProtocolDiff, ValueChange } from './spec-diff.js';
import { isEmptyDiff } from './spec-diff.js';

const ARROWS: Readonly<Record<string, string>> = { 'client-to-server': 'client → server', 'server-to-client': 'server → client', both: 'both ways' };

function code(text: string): string {
  return `\`${text}\``;
}

function gate(value: CapabilityGate | null): string {
  return value === null ? 'ungated' : `${value.side} capability ${code(value.path)}`;
}

function method(summary: MethodSummary): string {
  return `- ${code(summary.method)}: ${summary.kind}, ${ARROWS[summary.direction] ?? summary.direction}, ${gate(summary.capability)}`;
}

function names(list: readonly string[]): string {
  return list.length === 0 ? '(none)' : list.map(code).join(', ');
}

function methodChange(change: MethodChange): string {
  const parts: string[] = [];
  if (change.kind) parts.push(`kind ${change.kind.from} → ${change.kind.to}`);
  if (change.direction) parts.push(`direction ${ARROWS[change.direction.from] ?? change.direction.from} → ${ARROWS[change.direction.to] ?? change.direction.to}`);
  if (change.capability) parts.push(`gate ${gate(change.capability.from)} → ${gate(change.capability.to)}`);
  if (change.definition) parts.push(`definition ${code(change.definition.from)} → ${code(change.definition.to)}`);
  if (change.results) parts.push(`results ${names(change.results.from)} → ${names(change.results.to)}`);
  return `- ${code(change.method)}: ${parts.join('; ')}`;
}

function where(change: { path: string }): string {
  return change.path === '' ? 'the definition itself' : code(change.path);
}

function fieldChange(change: FieldChange): string {
  switch (change.change) {
    case 'added':
      return `- added ${where(change)} (${change.required ? 'required' : 'optional'}): ${code(change.type)}`;
    case 'removed':
      return `- removed ${where(change)} (was ${change.required ? 'required' : 'optional'}): ${code(change.type)}`;
    case 'required':
      return `- ${where(change)} made required`;
    case 'optional':
      return `- ${where(change)} made optional`;
    case 'type':
      return `- ${change.path === '' ? 'type' : `${where(change)} type`} ${code(change.from)} → ${code(change.to)}`;
    case 'members':
      return `- ${change.path === '' ? 'members' : `${where(change)} members`}: ${[
        change.added.length > 0 ? `added ${names(change.added)}` : '',
        change.removed.length > 0 ? `removed ${names(change.removed)}` : '',
      ]
        .filter((p) => p !== '')
        .join('; ')}`;
  }
}

function literal(value: unknown): string {
  return code(JSON.stringify(value));
}

function valueChange(change: ValueChange): string {
  const name = code(change.path === '' ? change.definition : `${change.definition}.${change.path}`);
  if (change.change === 'enum') {
    const parts = [change.added.length > 0 ? `added ${change.added.map(literal).join(', ')}` : '', change.removed.length > 0 ? `removed ${change.removed.map(literal).join(', ')}` : ''];
    return `- ${name} enum: ${parts.filter((p) => p !== '').join('; ')}`;
  }
  const side = (present: boolean, value: unknown) => (present ? literal(value) : '(no const)');
  return `- ${name} const: ${side(Object.hasOwn(change, 'from'), change.from)} → ${side(Object.hasOwn(change, 'to'), change.to)}`;
}

/** Groups changes by definition, keeping their order. */
function byDefinition<T extends { definition: string }>(list: readonly T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of list) groups.set(item.definition, [...(groups.get(item.definition) ?? []), item]);
  return groups;
}

/** The changelog as Markdown, starting with its `# ` title. */
export function renderDiffMarkdown(diff: ProtocolDiff): string {
  const { from, to } = diff;
  const out: string[] = [`# MCP protocol changes: ${from.revision} → ${to.revision}`, ''];
  const input = (ref: ProtocolDiff['from']) => `${code(ref.revision)} (schema sha256 ${code(ref.sha256.slice(0, 12))}, patches: ${ref.patches.length === 0 ? 'none' : ref.patches.map(code).join(', ')})`;
  out.push(
    `Computed by ${code(`tsx codegen/cli.ts spec diff ${from.revision} ${to.revision}`)} from the normalized schemas of ${input(from)} and ${input(to)}.`,
    '',
  );
  if (isEmptyDiff(diff)) {
    out.push('No protocol changes.', '');
    return out.join('\n');
  }
  const fieldDefs = new Set(diff.fields.map((f) => f.definition));
  out.push(
    '| | added | removed | changed |',
    '|---|---|---|---|',
    `| methods | ${diff.methods.added.length} | ${diff.methods.removed.length} | ${diff.methods.changed.length} |`,
    `| capabilities | ${[...diff.capabilities.client, ...diff.capabilities.server].filter((c) => c.change === 'added').length} | ${[...diff.capabilities.client, ...diff.capabilities.server].filter((c) => c.change === 'removed').length} | ${[...diff.capabilities.client, ...diff.capabilities.server].filter((c) => c.change !== 'added' && c.change !== 'removed').length} |`,
    `| definitions | ${diff.definitions.added.length} | ${diff.definitions.removed.length} | ${fieldDefs.size} |`,
    `| fields | ${diff.fields.filter((f) => f.change === 'added').length} | ${diff.fields.filter((f) => f.change === 'removed').length} | ${diff.fields.filter((f) => f.change !== 'added' && f.change !== 'removed').length} |`,
    `| enum and const values | ${diff.values.filter((v) => v.change === 'enum' && v.added.length > 0).length} | ${diff.values.filter((v) => v.change === 'enum' && v.removed.length > 0).length} | ${diff.values.filter((v) => v.change === 'const').length} |`,
    '',
  );
  const section = (title: string, lines: readonly string[]) => {
    if (lines.length > 0) out.push(`## ${title}`, '', ...lines, '');
  };
  section('Methods added', diff.methods.added.map(method));
  section('Methods removed', diff.methods.removed.map(method));
  section('Methods changed', diff.methods.changed.map(methodChange));
  const capabilityLines: string[] = [];
  for (const side of ['client', 'server'] as const) {
    const list = diff.capabilities[side];
    if (list.length > 0) capabilityLines.push(`### ${side === 'client' ? 'Client' : 'Server'} capabilities`, '', ...list.map(fieldChange), '');
  }
  if (capabilityLines.length > 0) out.push('## Capabilities', '', ...capabilityLines);
  section('Definitions added', diff.definitions.added.map((n) => `- ${code(n)}`));
  section('Definitions removed', diff.definitions.removed.map((n) => `- ${code(n)}`));
  const fieldLines: string[] = [];
  for (const [definition, list] of byDefinition(diff.fields)) fieldLines.push(`### ${code(definition)}`, '', ...list.map(fieldChange), '');
  if (fieldLines.length > 0) out.push('## Fields', '', ...fieldLines);
  section('Enum and const values', diff.values.map(valueChange));
  while (out[out.length - 1] === '' && out[out.length - 2] === '') out.pop();
  return out.join('\n');
}
