/** How long and how often each scenario runs. */
export interface Settings {
  readonly mode: 'full' | 'quick';
  /** Fresh processes per implementation and scenario. */
  readonly reps: number;
  /**
   * Runs executed at once. 1 for measurements; the smoke run uses 2 to stay fast, so its numbers
   * only show that every scenario still works.
   */
  readonly parallel: number;
  /** Each call phase lasts phaseMs; the warm-up lasts warmupMs and at least warmupCalls calls (at most 4 × warmupMs). */
  readonly calls: { readonly phaseMs: number; readonly warmupMs: number; readonly warmupCalls: number };
  readonly toolsList: { readonly toolCount: number; readonly durationMs: number; readonly warmupMs: number };
  readonly validation: { readonly durationMs: number; readonly warmupMs: number };
  readonly memory: { readonly calls: number; readonly warmupCalls: number; readonly checkpoints: number };
  /** The load scenario: concurrent clients (one session each), how long they loop, and the tool's awaited ms. */
  readonly load: { readonly clients: number; readonly durationMs: number; readonly toolDelayMs: number };
  /**
   * The loss runs: `requests` over `connections` (one session per connection), and `streams`
   * SSE streams over `streamSessions` sessions with `steps` progress messages each (both spread
   * below the per-session limit of 200 requests in progress).
   */
  readonly loss: { readonly requests: number; readonly connections: number; readonly streams: number; readonly streamSessions: number; readonly steps: number };
  /** Profile mcpgen (V8 CPU profile) wherever it misses a target. */
  readonly profile: boolean;
  /** Run the footprint scenario (installs packages from the registry). */
  readonly footprint: boolean;
}

export const FULL: Settings = {
  mode: 'full',
  reps: 5,
  parallel: 1,
  calls: { phaseMs: 2500, warmupMs: 1500, warmupCalls: 3000 },
  toolsList: { toolCount: 1000, durationMs: 2000, warmupMs: 1000 },
  validation: { durationMs: 500, warmupMs: 200 },
  memory: { calls: 100_000, warmupCalls: 10_000, checkpoints: 10 },
  load: { clients: 50, durationMs: 15_000, toolDelayMs: 5 },
  loss: { requests: 10_000, connections: 200, streams: 1000, streamSessions: 50, steps: 10 },
  profile: true,
  footprint: true,
};

/** A smoke run: every scenario but the footprint produces numbers, in seconds, not minutes. */
export const QUICK: Settings = {
  mode: 'quick',
  reps: 1,
  parallel: 2,
  calls: { phaseMs: 150, warmupMs: 100, warmupCalls: 0 },
  toolsList: { toolCount: 1000, durationMs: 150, warmupMs: 100 },
  validation: { durationMs: 60, warmupMs: 30 },
  memory: { calls: 3000, warmupCalls: 500, checkpoints: 3 },
  load: { clients: 50, durationMs: 2000, toolDelayMs: 5 },
  loss: { requests: 2000, connections: 40, streams: 200, streamSessions: 10, steps: 5 },
  profile: false,
  footprint: false,
};
