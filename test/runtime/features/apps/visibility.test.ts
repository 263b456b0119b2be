// What a host reads from a listed tool's _meta: the app's resource and who may call the tool.
import { describe, expect, it } from 'vitest';
import { appCallable, appResourceUri, modelVisible } from '../../../../runtime/features/apps/index.js';

describe('tool visibility and resource', () => {
  it('defaults to model and app, and follows _meta.ui.visibility', () => {
    const plain = { name: 'a' };
    const appOnly = { name: 'b', _meta: { ui: { resourceUri: 'ui://x/v', visibility: ['app'] } } };
    const modelOnly = { name: 'c', _meta: { ui: { visibility: ['model'] } } };
    expect([plain, appOnly, modelOnly].map((tool) => [modelVisible(tool), appCallable(tool)])).toEqual([[true, true], [false, true], [true, false]]);
  });

  it('treats a malformed _meta.ui as a plain tool that no View may call', () => {
    const odd = { name: 'd', _meta: { ui: { visibility: ['app', 'everyone'] } } };
    expect([modelVisible(odd), appCallable(odd), appResourceUri(odd)]).toEqual([true, false, undefined]);
  });

  it('reads the resource URI from _meta.ui or the deprecated flat key, only for ui://', () => {
    expect(appResourceUri({ name: 'a', _meta: { ui: { resourceUri: 'ui://x/v' } } })).toBe('ui://x/v');
    expect(appResourceUri({ name: 'a', _meta: { 'ui/resourceUri': 'ui://x/legacy' } })).toBe('ui://x/legacy');
    expect(appResourceUri({ name: 'a', _meta: { ui: { resourceUri: 'https://x/v' } } })).toBeUndefined();
    expect(appResourceUri({ name: 'a' })).toBeUndefined();
  });
});
