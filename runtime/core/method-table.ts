import type { MethodDirection, RevisionModule, Validator } from './contract.js';

/** Which role the local engine plays; decides which method directions it sends and accepts. */
export type Side = 'client' | 'server';

/** A method outside the schema that the application adds, with its own validators. */
export interface CustomRequestSpec {
  /** Validates `params` when present (and rejects absent params when `paramsRequired`). */
  readonly params: Validator;
  /** Validates the `result` of responses. */
  readonly result: Validator;
  /** Which side may send the request. */
  readonly direction: MethodDirection;
  /** Whether `params` must be present; default false. */
  readonly paramsRequired?: boolean;
  /**
   * The extension that defines the method. An extension's method may share its name with a
   * method of some revision (the 2026 tasks extension's `tasks/get` and 2025-11-25's): it
   * serves the revisions that lack the name, and the revision's own method wins elsewhere.
   */
  readonly extension?: string;
  /**
   * Whether a stateless-era Streamable HTTP request must carry `Mcp-Name` (its params' name,
   * URI or task id); otherwise the header is checked only when present. A revision's methods
   * and a generated extension's carry this as a generated fact (MethodInfo.nameHeader). Default
   * true for an application's method, false for an extension's (`extension` set), since the
   * transport spec lists no method of an extension written by hand (such as `skills/get`).
   */
  readonly nameHeader?: boolean;
}

/** A notification outside the schema that the application adds, with its own validator. */
export interface CustomNotificationSpec {
  /** Validates `params` when present (and rejects absent params when `paramsRequired`). */
  readonly params: Validator;
  /** Which side may send the notification. */
  readonly direction: MethodDirection;
  /** Whether `params` must be present; default false. */
  readonly paramsRequired?: boolean;
  /** The extension that defines the notification (see CustomRequestSpec.extension). */
  readonly extension?: string;
}

/** What the engine needs to know about one method, whether from the revision or custom. */
export interface ResolvedMethod {
  readonly method: string;
  readonly kind: 'request' | 'notification';
  readonly direction: MethodDirection;
  /** Embedded methods never travel as JSON-RPC requests of their own. */
  readonly embedded: boolean;
  readonly paramsRequired: boolean;
  readonly params: Validator;
  readonly result: Validator | null;
  /** Whether a stateless-era HTTP request must carry `Mcp-Name` (MethodInfo.nameHeader, CustomRequestSpec.nameHeader). */
  readonly nameHeader: boolean;
}

/** True when a peer playing `sender` may send a method with `direction`. */
export function mayBeSentBy(direction: MethodDirection, sender: Side): boolean {
  if (direction === 'both') {
    return true;
  }
  return direction === (sender === 'client' ? 'client-to-server' : 'server-to-client');
}

/** The opposite role. */
export function peerOf(side: Side): Side {
  return side === 'client' ? 'server' : 'client';
}

/**
 * Looks methods up in the bound revision first and in the application's custom methods
 * second. The revision wins on a clash so that a schema method is never silently replaced.
 */
export class MethodTable {
  private revisionModule: RevisionModule | undefined;
  // The next three are made on first use: most tables (an engine built per stateless request)
  // never have a custom method or an alternative.
  private customMethods: Map<string, ResolvedMethod> | undefined;
  /** Extra results of revision methods (an extension's), by method and `resultType`. */
  private alternatives: Map<string, Map<string, Validator>> | undefined;
  /** Extra results told apart by a member instead of `resultType` (2025-11-25's `{ task }`), by method and member. */
  private memberAlternatives: Map<string, Map<string, Validator>> | undefined;
  /** The bound revision's methods as looked up, with their alternatives: built once per revision and method. */
  private readonly resolved = new Map<string, ResolvedMethod>();

  constructor(revision?: RevisionModule) {
    this.revisionModule = revision;
  }

  /** The bound revision, if any. */
  get revision(): RevisionModule | undefined {
    return this.revisionModule;
  }

  set revision(revision: RevisionModule | undefined) {
    if (revision !== this.revisionModule) this.resolved.clear();
    this.revisionModule = revision;
  }

  /** The custom method registered as `method`, if any (a revision's own methods are not). */
  custom(method: string): ResolvedMethod | undefined {
    return this.customMethods?.get(method);
  }

  /** Adds a custom request; throws when the name is taken by the revision or another custom method. */
  addRequest(method: string, spec: CustomRequestSpec): void {
    this.addCustom(method, 'request', spec, spec.result, spec.nameHeader ?? spec.extension === undefined);
  }

  /** Adds a custom notification; throws when the name is taken. */
  addNotification(method: string, spec: CustomNotificationSpec): void {
    this.addCustom(method, 'notification', spec, null, false);
  }

  /**
   * Lets the result of `method` also be one whose `resultType` is `resultType`, checked by
   * `validator`: how an extension adds a result shape (a task handle) to a revision's method.
   */
  addResultAlternative(method: string, resultType: string, validator: Validator): void {
    this.addAlternative((this.alternatives ??= new Map()), method, resultType, validator);
  }

  /**
   * Lets the result of `method` also be one without `resultType` that has the own member
   * `member`, checked by `validator` (2025-11-25's CreateTaskResult, `{ task }`).
   */
  addResultMember(method: string, member: string, validator: Validator): void {
    this.addAlternative((this.memberAlternatives ??= new Map()), method, member, validator);
  }

  /** Removes a custom method; returns whether one was registered. */
  remove(method: string): boolean {
    return this.customMethods?.delete(method) ?? false;
  }

  /** Finds a method by name, or undefined when neither the revision nor the application knows it. */
  lookup(method: string): ResolvedMethod | undefined {
    // Only the bound revision's methods are kept there, and binding another clears them.
    const known = this.resolved.get(method);
    if (known !== undefined) return known;
    const methods = this.revisionModule?.methods;
    if (methods !== undefined && Object.hasOwn(methods, method)) {
      const info = methods[method]!;
      const resolved: ResolvedMethod = {
        method,
        kind: info.kind,
        direction: info.direction,
        embedded: info.embedded,
        paramsRequired: info.paramsRequired,
        params: info.params,
        result: info.result === null ? null : this.withAlternatives(method, info.result),
        nameHeader: info.nameHeader !== null,
      };
      this.resolved.set(method, resolved);
      return resolved;
    }
    return this.customMethods?.get(method);
  }

  private withAlternatives(method: string, base: Validator): Validator {
    const members = this.alternatives?.get(method);
    const byMember = this.memberAlternatives?.get(method);
    if (members === undefined && byMember === undefined) return base;
    const check = ((value: unknown): boolean => {
      const type = typeof value === 'object' && value !== null ? (value as { resultType?: unknown }).resultType : undefined;
      let chosen = (typeof type === 'string' ? members?.get(type) : undefined) ?? base;
      if (type === undefined && byMember !== undefined && typeof value === 'object' && value !== null) {
        for (const [member, validator] of byMember) {
          if (Object.hasOwn(value, member)) chosen = validator;
        }
      }
      const ok = chosen(value);
      check.errors = ok ? null : chosen.errors;
      return ok;
    }) as Validator;
    return check;
  }

  private addCustom(method: string, kind: ResolvedMethod['kind'], spec: CustomNotificationSpec, result: Validator | null, nameHeader: boolean): void {
    this.assertFree(method, spec.extension !== undefined);
    (this.customMethods ??= new Map()).set(method, {
      method,
      kind,
      direction: spec.direction,
      embedded: false,
      paramsRequired: spec.paramsRequired ?? false,
      params: spec.params,
      result,
      nameHeader,
    });
  }

  private addAlternative(table: Map<string, Map<string, Validator>>, method: string, key: string, validator: Validator): void {
    let members = table.get(method);
    if (members === undefined) {
      members = new Map();
      table.set(method, members);
    }
    members.set(key, validator);
    this.resolved.delete(method);
  }

  private assertFree(method: string, extension = false): void {
    const methods = this.revisionModule?.methods;
    if (!extension && methods !== undefined && Object.hasOwn(methods, method)) {
      throw new Error(`${method} is defined by revision ${this.revisionModule!.revision}`);
    }
    if (this.customMethods?.has(method) === true) {
      throw new Error(`${method} is already registered as a custom method`);
    }
  }
}
