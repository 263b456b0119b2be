import { describe, expect, it } from 'vitest';
import { featuresOf } from '../../../runtime/core/revision-features.js';

describe('featuresOf', () => {
  it('reads a pinned revision from the generated table', () => {
    expect(featuresOf('2025-11-25')).toEqual({ primingEvents: true, ssePolling: true, resumableStreams: true });
    expect(featuresOf('2025-06-18')).toEqual({ primingEvents: false, ssePolling: false, resumableStreams: true });
  });

  it('gives an unknown or absent revision no features', () => {
    const none = { primingEvents: false, ssePolling: false, resumableStreams: false };
    expect(featuresOf(undefined)).toEqual(none);
    expect(featuresOf('2099-01-01')).toEqual(none);
    expect(featuresOf('toString')).toEqual(none);
  });
});
