/**
 * Compiles one schema node into straight-line checks inside a generated function. The code
 * returns on the first failure (as ajv does without allErrors); the failure expression records
 * the issue through a validator-support helper, so check sites carry no message text.
 */
import { isSchemaObject, refTarget, type Schema } from '../schema-walk.js';
import { acceptsAll, acceptsEveryName, checkKeywords, GROUPS, type GroupType, type Site } from './keywords.js';

/** One segment of an instance path: static text (already a pointer) or an expression. */
export type PathPart = string | { readonly expr: string };
export type Path = readonly PathPart[];

/** What the node compiler needs from the module it writes into. */
export interface ModuleScope {
  readonly site: Site;
  /** A call expression checking `data` against the named definition. */
  refCall(definition: string, data: string): string;
  /** A call expression checking `data` against an inline schema compiled as a function of its own. */
  schemaCall(schema: unknown, data: string): string;
  /** Whether an inline schema recurs in the module often enough to be one shared function. */
  shared(schema: unknown): boolean;
  /** Records that the code uses a validator-support helper and returns its name. */
  helper(name: string): string;
}

/** The statements of one generated function. */
export class FunctionBody {
  readonly lines: string[] = [];
  private depth = 1;
  private counter = 0;
  /** Whether a sub-check's issues may need prefixing or dropping (the body then marks on entry). */
  usesMark = false;

  fresh(prefix: string): string {
    this.counter++;
    return `${prefix}${this.counter}`;
  }

  line(text: string): void {
    this.lines.push(`${'  '.repeat(this.depth)}${text}`);
  }

  open(text: string): void {
    this.line(`${text} {`);
    this.depth++;
  }

  close(): void {
    this.depth--;
    this.line('}');
  }
}

/** A single-quoted JavaScript string literal. */
export function q(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029')}'`;
}

/** A JSON value as a JavaScript literal (strings single-quoted, the rest as JSON). */
function literal(value: unknown): string {
  if (typeof value === 'string') return q(value);
  if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`;
  if (isSchemaObject(value)) return `{ ${Object.entries(value).map(([k, v]) => `${q(k)}: ${literal(v)}`).join(', ')} }`;
  return JSON.stringify(value);
}

function pointerSegment(key: string): string {
  return `/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

/** The path as a JavaScript string expression. */
export function pathCode(path: Path): string {
  const parts: string[] = [];
  let text = '';
  for (const part of path) {
    if (typeof part === 'string') {
      text += part;
      continue;
    }
    parts.push(q(`${text}/`));
    text = '';
    parts.push(part.expr);
  }
  if (text !== '' || parts.length === 0) parts.push(q(text));
  return parts.join(' + ');
}

function member(data: string, key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `${data}.${key}` : `${data}[${q(key)}]`;
}

const GROUP_GUARDS: Record<GroupType, (data: string, scope: ModuleScope) => string> = {
  number: (data) => `Number.isFinite(${data})`,
  string: (data) => `typeof ${data} === 'string'`,
  array: (data) => `Array.isArray(${data})`,
  object: (data, scope) => `${scope.helper('isObject')}(${data})`,
};

/** The data types each typed group applies to. */
const GROUP_TYPES: Record<GroupType, readonly string[]> = { number: ['number', 'integer'], string: ['string'], array: ['array'], object: ['object'] };

function typeTest(types: readonly string[], data: string, scope: ModuleScope): string {
  const tests = types
    .filter((type) => !(type === 'integer' && types.includes('number')))
    .map((type) => {
      switch (type) {
        case 'integer':
          return `Number.isInteger(${data})`;
        case 'boolean':
          return `typeof ${data} === 'boolean'`;
        case 'null':
          return `${data} === null`;
        default:
          return GROUP_GUARDS[type as GroupType](data, scope);
      }
    });
  return tests.join(' || ');
}

/** Single types have a helper each, so the common check sites stay short. */
const TYPE_HELPERS: Record<string, string> = {
  string: 'notString',
  object: 'notObject',
  array: 'notArray',
  boolean: 'notBoolean',
  number: 'notNumber',
  integer: 'notInteger',
  null: 'notNull',
};

function typeFailure(scope: ModuleScope, type: unknown, at: string): string {
  const single = typeof type === 'string' ? TYPE_HELPERS[type] : undefined;
  return single !== undefined ? `${scope.helper(single)}(${at})` : `${scope.helper('typeError')}(${at}, ${literal(type)})`;
}

/** Checks `schema` on `data` at `path`: inline, or as a call when the schema is shared. */
function compileValue(body: FunctionBody, scope: ModuleScope, schema: unknown, data: string, path: Path): void {
  if (pureRef(schema) === null && scope.shared(schema)) checkCall(body, scope, scope.schemaCall(schema, data), path);
  else compileNode(body, scope, schema, data, path);
}

/** `$ref` alone (annotations aside): a plain call of the definition's function. */
export function pureRef(schema: unknown): string | null {
  if (!isSchemaObject(schema) || schema.$ref === undefined) return null;
  const { $ref, ...rest } = schema;
  return acceptsAll(rest) ? refTarget($ref) : null;
}

/** The call expression for a sub-schema applied to `data` as a whole. */
function subCall(scope: ModuleScope, schema: unknown, data: string): string {
  const ref = pureRef(schema);
  return ref !== null ? scope.refCall(ref, data) : scope.schemaCall(schema, data);
}

/** Emits `if (!call) return …` with the sub-check's issues moved under `path`. */
function checkCall(body: FunctionBody, scope: ModuleScope, call: string, path: Path): void {
  if (path.length === 0) {
    body.line(`if (!${call}) return false;`);
    return;
  }
  body.usesMark = true;
  body.line(`if (!${call}) return ${scope.helper('prefix')}(s, ${pathCode(path)});`);
}

/** Emits the checks of `schema` on the value in variable `data`, which sits at `path`. */
export function compileNode(body: FunctionBody, scope: ModuleScope, schema: unknown, data: string, path: Path): void {
  if (acceptsAll(schema)) return;
  const at = () => pathCode(path);
  if (schema === false) {
    body.line(`return ${scope.helper('fail')}(${at()}, 'false schema', {});`);
    return;
  }
  if (!isSchemaObject(schema)) throw new Error(`${scope.site.definition}: a schema is neither an object nor a boolean`);
  checkKeywords(scope.site, schema);
  const ref = pureRef(schema);
  if (ref !== null) {
    checkCall(body, scope, scope.refCall(ref, data), path);
    return;
  }

  const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
  const used = (group: GroupType) => GROUPS.find(([g]) => g === group)![1].some((keyword) => schema[keyword] !== undefined);
  // One type whose group has keywords: ajv checks the type where that group runs, after the untyped keywords.
  const deferred = types.length === 1 && types[0]! in GROUP_TYPES && used(types[0] as GroupType) ? (types[0] as GroupType) : null;
  const typeCheck = () => body.line(`if (!(${typeTest(types, data, scope)})) return ${typeFailure(scope, schema.type, at())};`);
  if (types.length > 0 && deferred === null) typeCheck();

  // Untyped keywords: $ref, const, enum, not, anyOf, allOf.
  const target = refTarget(schema.$ref);
  if (schema.$ref !== undefined) checkCall(body, scope, scope.refCall(target!, data), path);
  if (schema.const !== undefined) {
    const value = literal(schema.const);
    const differs = typeof schema.const === 'object' && schema.const !== null ? `!${scope.helper('equal')}(${data}, ${value})` : `${data} !== ${value}`;
    body.line(`if (${differs}) return ${scope.helper('notConst')}(${at()}, ${value});`);
  }
  if (Array.isArray(schema.enum)) {
    const values = schema.enum as unknown[];
    const matches = values.map((v) => (typeof v === 'object' && v !== null ? `${scope.helper('equal')}(${data}, ${literal(v)})` : `${data} === ${literal(v)}`));
    body.line(`if (!(${matches.length > 0 ? matches.join(' || ') : 'false'})) return ${scope.helper('notEnum')}(${at()}, ${literal(values)});`);
  }
  if (schema.not !== undefined && schema.not !== false) {
    if (acceptsAll(schema.not)) body.line(`return ${scope.helper('fail')}(${at()}, 'not', {});`);
    else {
      body.usesMark = true;
      body.line(`if (${subCall(scope, schema.not, data)}) return ${scope.helper('fail')}(${at()}, 'not', {});`);
      body.line(`${scope.helper('cut')}(s);`);
    }
  }
  if (Array.isArray(schema.anyOf) && !schema.anyOf.some(acceptsAll)) {
    body.usesMark = true;
    const calls = schema.anyOf.map((branch) => subCall(scope, branch, data));
    body.line(`if (!(${calls.join(' || ')})) return ${scope.helper('noBranch')}(s, ${at()});`);
    body.line(`${scope.helper('cut')}(s);`);
  }
  if (Array.isArray(schema.allOf)) {
    for (const part of schema.allOf) {
      const partRef = pureRef(part);
      if (partRef !== null) checkCall(body, scope, scope.refCall(partRef, data), path);
      else compileNode(body, scope, part, data, path);
    }
  }

  for (const [group, keywords] of GROUPS) {
    if (!keywords.some((keyword) => schema[keyword] !== undefined)) continue;
    const implied = types.length > 0 && types.every((type) => GROUP_TYPES[group].includes(type));
    const impossible = types.length > 0 && deferred === null && !types.some((type) => GROUP_TYPES[group].includes(type));
    if (impossible) continue;
    const guarded = deferred !== group && !implied;
    if (deferred === group) typeCheck();
    if (guarded) body.open(`if (${GROUP_GUARDS[group](data, scope)})`);
    compileGroup(body, scope, group, schema, data, path);
    if (guarded) body.close();
  }
}

function compileGroup(body: FunctionBody, scope: ModuleScope, group: GroupType, schema: Schema, data: string, path: Path): void {
  const at = pathCode(path);
  const bound = (keyword: string, test: string) => {
    if (schema[keyword] !== undefined) body.line(`if (${test} ${schema[keyword] as number}) return ${scope.helper('limit')}(${at}, '${keyword}', ${schema[keyword] as number});`);
  };
  switch (group) {
    case 'number':
      bound('maximum', `${data} >`);
      bound('minimum', `${data} <`);
      return;
    case 'string':
      bound('maxLength', `${scope.helper('ucs2length')}(${data}) >`);
      bound('minLength', `${scope.helper('ucs2length')}(${data}) <`);
      if (schema.format !== undefined) {
        const format = schema.format as string;
        body.line(`if (!${scope.helper(FORMAT_HELPERS[format]!)}(${data})) return ${scope.helper('badFormat')}(${at}, ${q(format)});`);
      }
      return;
    case 'array':
      bound('maxItems', `${data}.length >`);
      if (schema.items !== undefined && !acceptsAll(schema.items)) {
        const index = body.fresh('i');
        const item = body.fresh('v');
        body.open(`for (let ${index} = 0; ${index} < ${data}.length; ${index}++)`);
        body.line(`const ${item} = ${data}[${index}];`);
        compileValue(body, scope, schema.items, item, [...path, { expr: index }]);
        body.close();
      }
      return;
    case 'object':
      compileObject(body, scope, schema, data, path);
  }
}

/** Helpers that accept `undefined` or a value of one type. */
const OPTIONAL_HELPERS: Record<string, string> = {
  string: 'optString',
  boolean: 'optBoolean',
  number: 'optNumber',
  integer: 'optInteger',
  object: 'optObject',
  array: 'optArray',
};

/** The type of a schema that is `{ type: T }` alone (annotations aside), else null. */
function plainType(schema: unknown): string | null {
  if (!isSchemaObject(schema) || typeof schema.type !== 'string' || OPTIONAL_HELPERS[schema.type] === undefined) return null;
  const { type, ...rest } = schema;
  return acceptsAll(rest) ? type : null;
}

/** Support helpers that check each format. */
const FORMAT_HELPERS: Record<string, string> = { uri: 'isUri', byte: 'isByte', 'uri-template': 'isUriTemplate' };

function compileObject(body: FunctionBody, scope: ModuleScope, schema: Schema, data: string, path: Path): void {
  const at = pathCode(path);
  const required = [...new Set((schema.required as string[] | undefined) ?? [])];
  if (required.length > 0) {
    const absent = required.map((name) => `${member(data, name)} === undefined`).join(' || ');
    body.line(`if (${absent}) return ${scope.helper('missing')}(${at}, ${data}, ${literal(required)});`);
  }
  if (schema.propertyNames !== undefined && !acceptsEveryName(schema.propertyNames)) {
    // A name has no instance path of its own: ajv reports the name's issues at the object,
    // then a propertyNames issue naming it.
    body.usesMark = true;
    const key = body.fresh('k');
    body.open(`for (const ${key} in ${data})`);
    body.line(`if (!${subCall(scope, schema.propertyNames, key)}) return ${scope.helper('badName')}(s, ${at}, ${key});`);
    body.close();
  }
  const properties = isSchemaObject(schema.properties) ? schema.properties : {};
  const known = Object.keys(properties);
  const extra = schema.additionalProperties;
  if (extra !== undefined && !acceptsAll(extra)) {
    const key = body.fresh('k');
    body.open(`for (const ${key} in ${data})`);
    if (known.length > 0) body.line(`switch (${key}) { ${known.map((name) => `case ${q(name)}:`).join(' ')} continue; }`);
    if (extra === false) body.line(`return ${scope.helper('additional')}(${at}, ${key});`);
    else {
      const value = body.fresh('v');
      body.line(`const ${value} = ${data}[${key}];`);
      compileValue(body, scope, extra, value, [...path, { expr: `${scope.helper('pointer')}(${key})` }]);
    }
    body.close();
  }
  for (const [name, sub] of Object.entries(properties)) {
    if (acceptsAll(sub)) continue;
    const optional = !required.includes(name);
    const plain = plainType(sub);
    if (optional && plain !== null) {
      // An optional property of one plain type: one helper test, as short as a check can be.
      body.line(`if (!${scope.helper(OPTIONAL_HELPERS[plain]!)}(${member(data, name)})) return ${typeFailure(scope, plain, pathCode([...path, pointerSegment(name)]))};`);
      continue;
    }
    const value = body.fresh('v');
    body.line(`const ${value} = ${member(data, name)};`);
    // A required property was found present above, so only optional ones need the test.
    if (optional) body.open(`if (${value} !== undefined)`);
    compileValue(body, scope, sub, value, [...path, pointerSegment(name)]);
    if (optional) body.close();
  }
}
