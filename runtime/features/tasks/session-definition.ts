import type { Validator } from '../../core/contract.js';
import type { ExtensionEndpoint as Endpoint } from '../../peers/extension.js';

/**
 * Checks a value with the named definition of the endpoint's revision at the time of the
 * check (2025-11-25's CreateTaskResult for a `{ task }` tools/call result), so no revision
 * module loads before a session speaks it.
 */
export function sessionDefinition(endpoint: Endpoint, name: string): Validator {
  const check = ((value: unknown) => {
    const validate = endpoint.protocol.revision?.definitions[name];
    if (validate === undefined) {
      check.errors = [{ instancePath: '', message: `the session's revision has no ${name}`, keyword: 'definition', params: { definition: name } }];
      return false;
    }
    const valid = validate(value);
    check.errors = validate.errors ?? null;
    return valid;
  }) as Validator;
  return check;
}
