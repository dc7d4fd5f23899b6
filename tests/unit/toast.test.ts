import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { $toast, dismissToast, showToast, TOAST_DURATION_MS } from '../../src/stores/toast';
import { TOAST_REMOVE_DELAY_MS } from '../../src/lib/domain/ui';

describe('toast store (spec section 9)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.runOnlyPendingTimers();
    vi.useRealTimers();
    $toast.set(null);
  });

  it('shows one toast at a time for 5000 ms by default', () => {
    expect(TOAST_DURATION_MS).toBe(5000);
    showToast({ title: 'AAPL added to watchlist' });
    showToast({ title: 'URL copied', durationMs: 2000 });
    expect($toast.get()).toMatchObject({ title: 'URL copied', durationMs: 2000, open: true, variant: 'default' });
  });

  it('closes a dismissed toast at once and removes it after 1,000,000 ms', () => {
    expect(TOAST_REMOVE_DELAY_MS).toBe(1_000_000);
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
