/**
 * How the manager's clients answer a server's `elicitation/create`: a URL flow goes to the same
 * prompt as a -32042 refusal, a form to the form prompt, and either is declined when the host
 * gave no prompt for it. The capabilities declared say exactly which prompts there are.
 */
import type * as Stateful from '../../../generated/protocol/stateful.js';
import { Method } from '../../../generated/methods.js';
import type { Client } from '../../peers/client.js';
import type { FormElicitationHandler } from './form-elicitation.js';
import type { UrlElicitationHandler } from './url-elicitation.js';

/** The host's prompts for the two elicitation modes. */
export interface ElicitationPrompts {
  readonly url?: UrlElicitationHandler | undefined;
  readonly form?: FormElicitationHandler | undefined;
}

/** `capabilities` with `elicitation.url` / `elicitation.form` declared for the prompts given. */
export function withElicitationCapabilities(capabilities: Stateful.ClientCapabilities | undefined, prompts: ElicitationPrompts): Stateful.ClientCapabilities {
  if (prompts.url === undefined && prompts.form === undefined) return { ...capabilities };
  return {
    ...capabilities,
    elicitation: { ...capabilities?.elicitation, ...(prompts.url === undefined ? {} : { url: {} }), ...(prompts.form === undefined ? {} : { form: {} }) },
  };
}

/** Installs the `elicitation/create` handler of `server`'s client, when there is any prompt. */
export function installElicitationHandler(client: Client, server: string, prompts: ElicitationPrompts): void {
  const { url, form } = prompts;
  if (url === undefined && form === undefined) return;
  client.setRequestHandler(Method.ElicitationCreate, async (params, context) => {
    if (params.mode === 'url') {
      if (url === undefined) return { action: 'decline' };
      const completed = await url({ server, method: Method.ElicitationCreate, elicitations: [params], attempt: 1, signal: context.signal });
      return { action: completed ? 'accept' : 'cancel' };
    }
    if (form === undefined) return { action: 'decline' };
    return form({ server, message: params.message, requestedSchema: params.requestedSchema, signal: context.signal });
  });
}
