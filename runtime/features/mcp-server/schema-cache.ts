import { toParsingSchema, type ParsingSchema, type SchemaInput, type SchemaSide, type ToJsonSchema } from '../../json-schema/schema-input.js';
import type { JsonSchemaValidator } from '../../json-schema/types.js';
import type { SchemaCache } from './context.js';

/**
 * The parsing form of every schema an McpServer was given, per side (input or output), built
 * on first use. Keyed weakly by the schema object, so an unregistered tool's schema is not
 * kept alive; one entry per schema and side bounds it by what is registered.
 */
export class ParsingSchemaCache implements SchemaCache {
  private readonly bySchema = new WeakMap<object, Map<SchemaSide, ParsingSchema>>();

  constructor(
    private readonly validator: JsonSchemaValidator,
    private readonly toJsonSchema: ToJsonSchema | undefined,
  ) {}

  parsing<T>(schema: SchemaInput, side: SchemaSide, what: string): ParsingSchema<T> {
    let sides = this.bySchema.get(schema);
    if (sides === undefined) {
      sides = new Map();
      this.bySchema.set(schema, sides);
    }
    let parsing = sides.get(side);
    if (parsing === undefined) {
      parsing = toParsingSchema(schema, this.validator, side, what, this.toJsonSchema);
      sides.set(side, parsing);
    }
    return parsing as ParsingSchema<T>;
  }
}
