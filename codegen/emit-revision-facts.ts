import type { RevisionModel } from './model.js';
import type { MethodSpec } from './method-spec.js';
import type { RevisionTable } from './method-table.js';

const q = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** The facts of one method the runtime needs before the revision's module is loaded. */
function factLiteral(spec: MethodSpec): string {
  const gate = spec.capability === null ? 'null' : `{ holder: ${q(spec.capability.holder)}, path: [${spec.capability.path.map(q).join(', ')}] }`;
  return `{ kind: ${q(spec.kind)}, direction: ${q(spec.direction)}, embedded: ${spec.embedded}, capability: ${gate}, stub: ${q(spec.stubName)} }`;
}

/** Names each distinct literal once, in `names`: `${prefix}0`, `${prefix}1`… in the order first seen. */
function interner(names: Map<string, string>, prefix: string): (literal: string) => string {
  return (literal) => {
    let name = names.get(literal);
    if (name === undefined) {
      name = `${prefix}${names.size}`;
      names.set(literal, name);
    }
    return name;
  };
}

/**
 * `facts.ts`: every pinned revision's string facts (era, batching, error codes, and per method
 * its kind, direction, capability gate and stub name), with no validator. The runtime reads it
 * to decide which revision module to load, so its root entry imports no revision module. A
 * method whose facts, or an error code table, the same in several revisions is one shared
 * object: every program carries this file, so its size is every bundle's.
 */
export function emitFactsFile(revisions: ReadonlyArray<{ readonly model: RevisionModel; readonly table: RevisionTable }>): string {
  const shared = new Map<string, string>();
  const nameOf = interner(shared, 'm');
  const codeTables = new Map<string, string>();
  const codesNameOf = interner(codeTables, 'e');
  const blocks = revisions.map(({ model, table }) => {
    const methods = table.methods.map((spec) => `      ${q(spec.method)}: ${nameOf(factLiteral(spec))},`);
    const codes = codesNameOf(`{ ${table.errorCodes.map((code) => `${code.name}: ${code.code}`).join(', ')} }`);
    return [
      `  ${q(model.pin.revision)}: {`,
      `    revision: ${q(model.pin.revision)},`,
      `    era: ${q(model.pin.era)},`,
      `    status: ${q(model.pin.status)},`,
      `    batching: ${table.batching},`,
      `    errorCodes: ${codes},`,
      `    methods: {`,
      ...methods,
      `    },`,
      `  },`,
    ].join('\n');
  });
  return [
    `import type { CapabilityGate, Era, MethodDirection } from './contract.js';`,
    '',
    `/** What the runtime knows about one method of a revision without loading the revision's module. */`,
    `export interface MethodFact {`,
    `  readonly kind: 'request' | 'notification';`,
    `  readonly direction: MethodDirection;`,
    `  /** True for members of \`InputRequest\`, which travel inside an \`InputRequiredResult\`. */`,
    `  readonly embedded: boolean;`,
    `  readonly capability: CapabilityGate | null;`,
    `  /** Name of the typed stub that sends it (\`callTool\`, \`notifyToolListChanged\`). */`,
    `  readonly stub: string;`,
    `}`,
    '',
    `/** A revision's facts that need no validator: enough to choose, refuse and route before loading it. */`,
    `export interface RevisionFacts {`,
    `  readonly revision: string;`,
    `  readonly era: Era;`,
    `  readonly status: 'released' | 'draft';`,
    `  /** Whether JSON-RPC batches are allowed on the wire. */`,
    `  readonly batching: boolean;`,
    `  /** Error code constants by name. */`,
    `  readonly errorCodes: Readonly<Record<string, number>>;`,
    `  readonly methods: Readonly<Record<string, MethodFact>>;`,
    `}`,
    '',
    ...[...shared].map(([literal, name]) => `const ${name}: MethodFact = ${literal};`),
    '',
    ...[...codeTables].map(([literal, name]) => `const ${name}: Readonly<Record<string, number>> = ${literal};`),
    '',
    `/** Every pinned revision's facts, keyed by revision. */`,
    `export const revisionFacts: Readonly<Record<string, RevisionFacts>> = {`,
    ...blocks,
    `};`,
    '',
  ].join('\n');
}
