import { cleanTestStorage, getTestStorage, setTestStorageKey, useTestStorageEngine } from '@nanostores/persistent';
import { cleanStores } from 'nanostores';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { $theme, nextTheme, type Theme } from '../../src/stores/theme';

describe('theme toggle', () => {
  it.each([
    ['dark', 'light'],
    ['light', 'system'],
    ['system', 'dark'],
  ] as [Theme, Theme][])('%s -> %s', (from, to) => {
    expect(nextTheme(from)).toBe(to);
  });
});

describe('the saved theme (spec sections 3 and 4)', () => {
  beforeAll(() => useTestStorageEngine());
  afterEach(() => {
    cleanStores($theme);
    cleanTestStorage();
  });

  it('is saved under cardify-theme', () => {
    $theme.set('light');
    expect(getTestStorage()).toEqual({ 'cardify-theme': 'light' });
  });

  it('is read back from there; nothing, or anything but a theme, reads as dark', () => {
    const seen: Theme[] = [];
    $theme.subscribe((theme) => seen.push(theme));
    setTestStorageKey('cardify-theme', 'system');
    setTestStorageKey('cardify-theme', 'purple');
    setTestStorageKey('cardify-theme', 'light');
    setTestStorageKey('cardify-theme', undefined);
    expect(seen).toEqual(['dark', 'system', 'dark', 'light', 'dark']);
  });
});
