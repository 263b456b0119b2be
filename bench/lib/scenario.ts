// What a scenario is: its metrics, one repetition's outcome, and how a run asks for profiles.
import type { ClockWindow } from './call-loop.js';
import type { Settings } from './settings.js';
import type { ImplName } from './types.js';

export interface Metric {
  readonly id: string;
  readonly label: string;
  readonly unit: string;
  readonly better: 'higher' | 'lower';
}

export type Outcome =
  | {
      readonly values: Readonly<Record<string, number | null>>;
      /** When the measured part ran: profiles of the run are cut to it. */
      readonly window?: ClockWindow;
    }
  | { readonly unavailable: string };

/** Where a profiled run writes its V8 CPU profiles. */
export interface ProfileRequest {
  readonly dir: string;
}

export interface Scenario {
  readonly id: string;
  readonly title: string;
  readonly about: string;
  readonly metrics: readonly Metric[];
  /** One repetition for one implementation, in fresh processes. */
  run(impl: ImplName, settings: Settings, profile?: ProfileRequest): Promise<Outcome>;
}
