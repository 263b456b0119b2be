// The validation floor: ajv compiling definitions of the pinned 2025-11-25 schema at run time,
// with ajv's default options and the formats the schema names. The document is compiled with
// ajv's draft-07 engine, as codegen does: the MCP schemas use no keyword whose meaning differs
// between draft-07 and 2020-12 (codegen/model.ts), and ajv's 2020-12 engine is several times
// slower on the same definitions (it tracks evaluated properties for unevaluated*), which would
// make the floor easy to beat.
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { loadPinnedSchema } from './spec-schema.js';

export const FLOOR_REVISION = '2025-11-25';

export function compileFloorValidators<D extends string>(definitions: readonly D[]): Record<D, (value: unknown) => boolean> {
  const { document } = loadPinnedSchema(FLOOR_REVISION);
  const { $schema: _dialect, ...body } = document;
  const ajv = new Ajv.default({ strict: false, allowUnionTypes: true });
  addFormats.default(ajv);
  ajv.addSchema({ ...body, $id: 'mcp' });
  const table = {} as Record<D, (value: unknown) => boolean>;
  for (const definition of definitions) {
    const validate = ajv.compile({ $ref: `mcp#/$defs/${definition}` });
    table[definition] = (value) => validate(value);
  }
  return table;
}
