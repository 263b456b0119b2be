/**
 * The wire shapes of the Skills extension (io.modelcontextprotocol/skills, SEP-2640) and their
 * validators. The extension publishes no JSON Schema, so its types are written here from the
 * normative text (ext-skills `specification/stable/skills.mdx`) and checked by the runtime's
 * interpreting JSON Schema validator, which reports the failing field for -32602 replies.
 */
import type { Validator } from '../../../generated/contract.js';
import { InterpretingJsonSchemaValidator } from '../../json-schema/interpreter.js';
import type { JsonSchemaObject } from '../../json-schema/types.js';

/** The extension identifier, its key in `capabilities.extensions`. */
export const SKILLS_EXTENSION_ID = 'io.modelcontextprotocol/skills';

/** The methods the extension defines (the `skills/` prefix is reserved for it). */
export const SkillsMethod = {
  List: 'skills/list',
  Get: 'skills/get',
  DirectoryRead: 'resources/directory/read',
} as const;

/** The file every skill has at its root. */
export const SKILL_FILE = 'SKILL.md';
/** The mime type of a directory resource. */
export const DIRECTORY_MIME_TYPE = 'inode/directory';
/** Most entries a skill's `resources` may have (SKILL.md included). */
export const MAX_SKILL_RESOURCES = 512;
/** Most bytes a skill's files may add up to: 16 MiB. */
export const MAX_SKILL_BYTES = 16 * 1024 * 1024;
/** Skill names: 1-64 lowercase letters, digits and hyphens, no hyphen at either end or twice in a row. */
export const SKILL_NAME = /^(?!.*--)[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
/** A digest as the extension writes it. */
export const DIGEST = /^sha256:[0-9a-f]{64}$/;

/** A file of a skill, with the digest and size of its raw bytes. */
export interface SkillResource {
  readonly uri: string;
  /** `sha256:` and 64 lowercase hex digits. */
  readonly digest: string;
  /** Length of the file's raw bytes. */
  readonly size: number;
}

/** A skill's SKILL.md frontmatter as a JSON object: `name` and `description` always present. */
export interface SkillFrontmatter {
  readonly name: string;
  readonly description: string;
  readonly [key: string]: unknown;
}

/** The entry for one skill, as `skills/list` and `skills/get` return it. */
export interface Skill {
  /** URI of the skill's SKILL.md. */
  readonly uri: string;
  readonly frontmatter: SkillFrontmatter;
  /** Every file of the skill, or `dynamic` when its content has no stable digests. */
  readonly resources: readonly SkillResource[] | 'dynamic';
}

/** The result of `skills/list`. */
export interface ListSkillsResult {
  readonly skills: readonly Skill[];
  readonly nextCursor?: string;
  readonly [key: string]: unknown;
}

/** The result of `skills/get`. */
export interface GetSkillResult {
  readonly skill: Skill;
  readonly [key: string]: unknown;
}

/** A resource as `resources/directory/read` lists it. */
export interface DirectoryEntry {
  readonly uri: string;
  readonly name: string;
  readonly mimeType?: string;
  readonly size?: number;
  readonly description?: string;
}

/** The result of `resources/directory/read`. */
export interface ReadDirectoryResult {
  readonly resources: readonly DirectoryEntry[];
  readonly nextCursor?: string;
  readonly [key: string]: unknown;
}

const meta: JsonSchemaObject = { type: 'object' };
const cursorParams: JsonSchemaObject = { type: 'object', properties: { cursor: { type: 'string' }, _meta: meta } };
const uriProperties = { uri: { type: 'string', minLength: 1 }, _meta: meta } as const;
const uriParams: JsonSchemaObject = { type: 'object', required: ['uri'], properties: uriProperties };

const skillSchema: JsonSchemaObject = {
  type: 'object',
  required: ['uri', 'frontmatter', 'resources'],
  properties: {
    uri: { type: 'string', minLength: 1 },
    frontmatter: {
      type: 'object',
      required: ['name', 'description'],
      properties: { name: { type: 'string', minLength: 1 }, description: { type: 'string', minLength: 1 } },
    },
    resources: {
      anyOf: [
        { const: 'dynamic' },
        {
          type: 'array',
          items: {
            type: 'object',
            required: ['uri', 'digest', 'size'],
            properties: { uri: { type: 'string', minLength: 1 }, digest: { type: 'string', pattern: DIGEST.source }, size: { type: 'integer', minimum: 0 } },
          },
        },
      ],
    },
  },
};

const interpreter = new InterpretingJsonSchemaValidator({ formats: 'ignore', maxErrors: 10 });

/** A generated-style validator (a type guard with `errors`) from a JSON Schema. */
function validatorOf<T>(schema: JsonSchemaObject): Validator<T> {
  const check = interpreter.compile(schema);
  const validator = ((value: unknown): value is T => {
    const outcome = check(value);
    validator.errors = outcome.valid ? null : outcome.errors;
    return outcome.valid;
  }) as Validator<T>;
  return validator;
}

/** Params of `skills/list`. */
export const isListSkillsParams = validatorOf<{ cursor?: string }>(cursorParams);
/** Params of `skills/get`. */
export const isGetSkillParams = validatorOf<{ uri: string }>(uriParams);
/** Params of `resources/directory/read`. */
export const isReadDirectoryParams = validatorOf<{ uri: string; cursor?: string }>({ type: 'object', required: ['uri'], properties: { ...uriProperties, cursor: { type: 'string' } } });
/** The result of `skills/list`, every entry checked. */
export const isListSkillsResult = validatorOf<ListSkillsResult>({
  type: 'object',
  required: ['skills'],
  properties: { skills: { type: 'array', items: skillSchema }, nextCursor: { type: 'string' } },
});
/** The result of `skills/get`. */
export const isGetSkillResult = validatorOf<GetSkillResult>({ type: 'object', required: ['skill'], properties: { skill: skillSchema } });
/** The result of `resources/directory/read`. */
export const isReadDirectoryResult = validatorOf<ReadDirectoryResult>({
  type: 'object',
  required: ['resources'],
  properties: {
    resources: { type: 'array', items: { type: 'object', required: ['uri', 'name'], properties: { uri: { type: 'string' }, name: { type: 'string' } } } },
    nextCursor: { type: 'string' },
  },
});
