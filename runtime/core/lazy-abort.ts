/**
 * An abort flag whose AbortSignal is created only when someone asks for it. Most handlers never
 * look at their signal, and an AbortController costs more to create than the rest of a small
 * request's dispatch, so the engine pays for one only on demand.
 */
export class LazyAbort {
  private controller: AbortController | undefined;
  private abortedWith: { reason: unknown } | undefined;

  /** True once abort() ran. */
  get aborted(): boolean {
    return this.abortedWith !== undefined;
  }

  /** The signal; created on first use, already aborted if abort() ran before. */
  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.abortedWith !== undefined) this.controller.abort(this.abortedWith.reason);
    }
    return this.controller.signal;
  }

  /** Aborts once; later calls do nothing. */
  abort(reason: unknown): void {
    if (this.abortedWith !== undefined) return;
    this.abortedWith = { reason };
    this.controller?.abort(reason);
  }
}
