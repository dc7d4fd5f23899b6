import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { $toast, dismissToast, showToast } from '../../src/stores/toast';

describe('toast store (spec section 9)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.runOnlyPendingTimers();
    vi.useRealTimers();
    $toast.set(null);
  });

  it('shows one toast at a time, for 5000 ms unless the caller asks otherwise', () => {
    showToast({ title: 'AAPL added to watchlist' });
    expect($toast.get()).toMatchObject({ title: 'AAPL added to watchlist', durationMs: 5000, open: true, variant: 'default' });
    showToast({ title: 'URL copied', durationMs: 2000 });
    expect($toast.get()).toMatchObject({ title: 'URL copied', durationMs: 2000, open: true, variant: 'default' });
  });

  it('closes a dismissed toast at once and removes it after 1,000,000 ms', () => {
    showToast({ title: 'URL copied' });
    dismissToast();
    expect($toast.get()).toMatchObject({ title: 'URL copied', open: false });
    vi.advanceTimersByTime(999_999);
    expect($toast.get()?.open).toBe(false);
    vi.advanceTimersByTime(1);
    expect($toast.get()).toBeNull();
  });

  it('a new toast replaces a dismissed one, and the old removal timer leaves it alone', () => {
    showToast({ title: 'first' });
    dismissToast();
    vi.advanceTimersByTime(500_000);
    showToast({ title: 'second' });
    vi.advanceTimersByTime(600_000);
    expect($toast.get()).toMatchObject({ title: 'second', open: true });
  });

  it('dismissing twice or with nothing on screen changes nothing', () => {
    dismissToast();
    expect($toast.get()).toBeNull();
    showToast({ title: 'once' });
    dismissToast();
    const closed = $toast.get();
    dismissToast();
    expect($toast.get()).toBe(closed);
  });
});
