/**
 * `subscriptions/listen` (2026-07-28 on): with no session and no GET stream, change
 * notifications reach a client only on the long-lived response of a listen request, and only
 * the kinds it opted in to. Each notification carries the listen request's id as its
 * subscription id; request-scoped notifications (progress, log) never travel here.
 */
import { hasCapability, type CapabilityObject } from './capabilities.js';
import { isJsonObject, type RequestId } from '../core/jsonrpc.js';
import type { Params, RequestContext } from '../core/request-context.js';
import { SUBSCRIPTION_ID_META } from './meta.js';
import { changeNotifications } from '../../generated/change-notifications.js';
import { Method } from '../../generated/methods.js';

/** A cache hint of a cacheable result (`CacheableResult` of 2026-07-28). */
export interface CacheHint {
  /** How long the client may reuse the result, in milliseconds (0: always re-fetch). */
  readonly ttlMs: number;
  /** `public`: shareable across users; `private`: only within one authorization context. */
  readonly cacheScope: 'public' | 'private';
}

/** The filter a client sends and the server acknowledges (SubscriptionFilter). */
interface Filter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
}

/**
 * The notification each filter member opts in to, with the server capability that must be
 * declared for it, from the generated change-notification table.
 */
const LIST_CHANGED: readonly { readonly member: 'toolsListChanged' | 'promptsListChanged' | 'resourcesListChanged'; readonly method: string; readonly capability: readonly string[] }[] = Object.entries(changeNotifications)
  .flatMap(([method, facts]) => (facts.key === null && facts.subscriptionFilter !== null ? [{ member: facts.subscriptionFilter as 'toolsListChanged' | 'promptsListChanged' | 'resourcesListChanged', method, capability: facts.capability }] : []));
const RESOURCE_UPDATED = Method.NotificationsResourcesUpdated;
const ACKNOWLEDGED = Method.NotificationsSubscriptionsAcknowledged;

interface Subscription {
  readonly id: RequestId;
  readonly filter: Filter;
  readonly end: () => void;
}

/** The live subscriptions of one Server. */
export class Subscriptions {
  private readonly live = new Set<Subscription>();

  constructor(
    private readonly capabilities: CapabilityObject,
    private readonly send: (method: string, params: Params, relatedRequestId: RequestId) => Promise<void>,
  ) {}

  /** Number of open subscriptions. */
  get size(): number {
    return this.live.size;
  }

  /**
   * Serves one listen request: acknowledges the kinds this server can honour, then holds the
   * request open until the client goes away (the reply is then suppressed) or the server ends
   * the subscription (answered with the subscription id).
   */
  async listen(params: Params | undefined, context: RequestContext): Promise<Record<string, unknown>> {
    const filter = this.agreed(isJsonObject(params?.notifications) ? params.notifications as Filter : {});
    const id = context.requestId;
    await context.sendNotification(ACKNOWLEDGED, { notifications: filter, _meta: { [SUBSCRIPTION_ID_META]: id } });
    await new Promise<void>((resolve) => {
      const subscription: Subscription = { id, filter, end: resolve };
      this.live.add(subscription);
      const signal = context.signal;
      const leave = (): void => {
        this.live.delete(subscription);
        resolve();
      };
      if (signal.aborted) leave();
      else signal.addEventListener('abort', leave, { once: true });
    });
    return { _meta: { [SUBSCRIPTION_ID_META]: id } };
  }

  /**
   * Delivers a change notification to every subscription that opted in to it, tagged with
   * its subscription id. Returns false when the notification is not one subscriptions carry.
   */
  async publish(method: string, params: Params | undefined): Promise<boolean> {
    const kind = LIST_CHANGED.find((entry) => entry.method === method);
    const uri = method === RESOURCE_UPDATED && typeof params?.uri === 'string' ? params.uri : undefined;
    if (kind === undefined && uri === undefined) return false;
    const sends: Promise<void>[] = [];
    for (const subscription of this.live) {
      const wanted = kind !== undefined ? subscription.filter[kind.member] === true : subscription.filter.resourceSubscriptions?.includes(uri!) === true;
      if (!wanted) continue;
      const meta = isJsonObject(params?._meta) ? params._meta : {};
      sends.push(this.send(method, { ...params, _meta: { ...meta, [SUBSCRIPTION_ID_META]: subscription.id } }, subscription.id));
    }
    await Promise.all(sends);
    return true;
  }

  /** Ends every subscription gracefully: each listen request is answered. */
  endAll(): void {
    for (const subscription of [...this.live]) {
      this.live.delete(subscription);
      subscription.end();
    }
  }

  /** The requested kinds this server honours: those its capabilities declare. */
  private agreed(requested: Filter): Filter {
    const agreed: Filter = {};
    for (const entry of LIST_CHANGED) {
      if (requested[entry.member] === true && hasCapability(this.capabilities, entry.capability)) agreed[entry.member] = true;
    }
    const uris = requested.resourceSubscriptions;
    if (Array.isArray(uris) && hasCapability(this.capabilities, changeNotifications[RESOURCE_UPDATED].capability)) {
      agreed.resourceSubscriptions = uris.filter((uri): uri is string => typeof uri === 'string');
    }
    return agreed;
  }
}
