/**
 * Server→client requests in the stateless era. A handler there cannot send `elicitation/create`,
 * `sampling/createMessage` or `roots/list` as requests of their own: the server answers with an
 * `InputRequiredResult` listing them, and the client retries the original request with the
 * answers (multi round-trip requests, MRTR). The broker lets the same handler code run in both
 * eras: each round re-runs the handler from the start, questions answered in earlier rounds
 * resolve at once, and the first unanswered one ends the round.
 */
import { hasCapability, describePath, type CapabilityObject } from './capabilities.js';
import type { RevisionModule } from '../core/contract.js';
import { ProtocolError, SdkError } from '../core/errors.js';
import { checkValue, describeIssues } from '../core/validation.js';

/** A question for the client, as it appears in `inputRequests`. */
export interface InputRequest {
  readonly method: string;
  readonly params: Record<string, unknown>;
}

/**
 * Rejects the handler's pending question once the round has to end. Handlers normally let it
 * propagate; one that catches it still ends the round with `input_required`, since whatever it
 * returns instead was computed without the answer.
 */
export class InputRequiredSignal extends Error {
  constructor(readonly key: string) {
    super(`The client must answer input request ${key} first; the request ends with input_required`);
    this.name = 'InputRequiredSignal';
  }
}

/** Collects the questions of one round and serves the answers of earlier ones. */
export class InputBroker {
  private readonly module: RevisionModule;
  private readonly answers: Readonly<Record<string, unknown>>;
  private readonly clientCapabilities: CapabilityObject | undefined;
  private readonly asked = new Map<string, InputRequest>();
  private readonly used = new Map<string, unknown>();
  private sequence = 0;

  /**
   * @param answers every answer known so far: the earlier rounds' (from the verified request
   *   state) and this retry's `inputResponses`. A member counts only once the handler asks
   *   the question with its key, and is checked against that method's result schema then, so
   *   unexpected members are ignored and malformed ones refused.
   */
  constructor(module: RevisionModule, answers: Readonly<Record<string, unknown>>, clientCapabilities: CapabilityObject | undefined) {
    this.module = module;
    this.answers = answers;
    this.clientCapabilities = clientCapabilities;
  }

  /** True when this round asked something still unanswered. */
  get pending(): boolean {
    return this.asked.size > 0;
  }

  /** The unanswered questions of this round, by key. */
  inputRequests(): Record<string, InputRequest> {
    return Object.fromEntries(this.asked);
  }

  /** The keys the next retry must answer. */
  awaitedKeys(): string[] {
    return [...this.asked.keys()];
  }

  /** The answers this round used, to carry into the next round's request state. */
  usedAnswers(): Record<string, unknown> {
    return Object.fromEntries(this.used);
  }

  /**
   * Asks the client: resolves with the answer when an earlier round got one, and otherwise
   * records the question and rejects with {@link InputRequiredSignal}. Keys follow the order
   * of the questions, which is why handlers must ask in the same order on every run.
   */
  request(method: string, params: Record<string, unknown> | undefined, key?: string): Promise<unknown> {
    const info = this.module.methods[method];
    if (info === undefined || !info.embedded) {
      return Promise.reject(new SdkError('UNKNOWN_METHOD', `${method} cannot be asked of the client in protocol ${this.module.revision}`));
    }
    if (info.capability !== null && !hasCapability(this.clientCapabilities, info.capability.path)) {
      // The request cannot succeed for this client: MissingRequiredClientCapabilityError names what it lacks.
      const required = info.capability.path.reduceRight<Record<string, unknown>>((inner, member) => ({ [member]: inner }), {});
      return Promise.reject(new ProtocolError(
        this.module.errorCodes.MISSING_REQUIRED_CLIENT_CAPABILITY ?? this.module.errorCodes.INVALID_REQUEST!,
        `Missing required client capability: ${describePath(info.capability.path)} (needed for ${method})`,
        { requiredCapabilities: required },
      ));
    }
    const sequence = this.sequence++;
    const name = key ?? `${method.replace(/[^A-Za-z0-9]+/g, '-')}-${sequence}`;
    if (Object.hasOwn(this.answers, name)) {
      const answer = this.answers[name];
      const issues = info.result === null ? null : checkValue(info.result, answer);
      if (issues !== null) {
        return Promise.reject(new ProtocolError(
          this.module.errorCodes.INVALID_PARAMS!,
          `Invalid params: inputResponses[${JSON.stringify(name)}] is not a valid ${method} result: ${describeIssues(issues, 'answer')}`,
          { issues },
        ));
      }
      this.used.set(name, answer);
      return Promise.resolve(answer);
    }
    this.asked.set(name, { method, params: params ?? {} });
    return Promise.reject(new InputRequiredSignal(name));
  }
}

/** True when `method`'s result may be an InputRequiredResult in `module` (tools/call, prompts/get, resources/read). */
export function acceptsInput(module: RevisionModule, method: string): boolean {
  // Every request of a connection asks about the same module: the last answer set is checked
  // by identity before the WeakMap, which costs a hash lookup per request.
  if (lastInputMethods?.module !== module) {
    let known = inputMethods.get(module);
    if (known === undefined) {
      known = new Set(Object.values(module.methods)
        .filter((info) => info.resultDefinitions.some((name) => isInputRequiredDefinition(module, name)))
        .map((info) => info.method));
      inputMethods.set(module, known);
    }
    lastInputMethods = { module, known };
  }
  return lastInputMethods.known.has(method);
}

const inputMethods = new WeakMap<RevisionModule, Set<string>>();
let lastInputMethods: { readonly module: RevisionModule; readonly known: ReadonlySet<string> } | undefined;

function isInputRequiredDefinition(module: RevisionModule, name: string): boolean {
  // The interim result is the one whose `resultType` is `input_required`; found by shape, not by name.
  const validator = module.definitions[name];
  return validator !== undefined && validator({ resultType: 'input_required', requestState: 'x' });
}
