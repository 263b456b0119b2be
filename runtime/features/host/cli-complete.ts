/**
 * `mcpgen complete <server> <prompt | resource template> <argument>[=prefix] [name=value …]`:
 * asks the server which values an argument may take (`completion/complete`), as a host's
 * input field would while the user types. Earlier arguments go in as `name=value` words.
 */
import type * as Stateful from '../../../generated/protocol/stateful.js';
import { writeJson, type CliIo } from './cli-auth.js';
import { EXIT, UsageError, type CliArgs } from './cli-args.js';
import type { ConnectionManager } from './manager.js';

/** The reference a completion is about: a resource template when the target looks like a URI, else a prompt. */
export function completionReference(target: string): Stateful.CompleteRequestParams['ref'] {
  return target.includes('://') || target.includes('{') ? { type: 'ref/resource', uri: target } : { type: 'ref/prompt', name: target };
}

/** Runs the command; resolves with the exit status, throws UsageError for a bad command line and the request's error when it fails. */
export async function complete(manager: ConnectionManager, server: string, positionals: readonly string[], args: CliArgs, io: CliIo): Promise<number> {
  const [target, argumentWord, ...contextWords] = positionals;
  if (target === undefined || argumentWord === undefined) throw new UsageError('complete needs a prompt name or resource template, and an argument name');
  const equals = argumentWord.indexOf('=');
  const argument = { name: equals === -1 ? argumentWord : argumentWord.slice(0, equals), value: equals === -1 ? '' : argumentWord.slice(equals + 1) };
  const known: Record<string, string> = {};
  for (const word of contextWords) {
    const at = word.indexOf('=');
    if (at <= 0) throw new UsageError(`expected name=value, not ${JSON.stringify(word)}`);
    known[word.slice(0, at)] = word.slice(at + 1);
  }
  const params: Stateful.CompleteRequestParams = {
    ref: completionReference(target),
    argument,
    ...(contextWords.length === 0 ? {} : { context: { arguments: known } }),
  };
  const { completion } = await manager.complete(server, params);
  if (args.json) writeJson(io, completion);
  else {
    for (const value of completion.values) io.stdout.write(`${value}\n`);
    if (completion.hasMore === true) {
      const more = completion.total === undefined ? 'more values' : `${completion.total - completion.values.length} more values`;
      io.stderr.write(`mcpgen: ${more} not shown (type more of the argument to narrow them)\n`);
    }
  }
  return EXIT.OK;
}
