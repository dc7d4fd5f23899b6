import { useEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { useStore } from '@nanostores/react';
import { $toast, dismissToast } from '../stores/toast';
import { TOAST_SWIPE_THRESHOLD_PX } from '../lib/domain/site/ui';
import { withErrorBoundary } from './ErrorBoundary';

/**
 * The notification area (spec section 9): one toast at a time for its duration (5000 ms unless the caller asks
 * otherwise), swipe right past 50 px to dismiss, F8 focuses the area. Hovering or focusing a toast pauses its timer.
 */
function ToastViewport() {
  const toast = useStore($toast);
  const region = useRef<HTMLOListElement>(null);
  const [paused, setPaused] = useState(false);
  const [offset, setOffset] = useState(0);
  const start = useRef<number | null>(null);
  // The distance dragged, read on release: the state may not have re-rendered after the last move yet.
  const dragged = useRef(0);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'F8') {
        event.preventDefault();
        region.current?.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  // A new toast starts where toasts sit; pausing (hover, focus) must not undo a swipe under way.
  useEffect(() => {
    setOffset(0);
    dragged.current = 0;
  }, [toast?.id]);

  useEffect(() => {
    if (!toast?.open || paused) return;
    const timer = setTimeout(dismissToast, toast.durationMs);
    return () => clearTimeout(timer);
  }, [toast, paused]);

  const onPointerDown = (event: ReactPointerEvent) => {
    // Capturing the pointer would send the close button's click to the toast instead.
    if ((event.target as Element).closest('button')) return;
    start.current = event.clientX;
    (event.currentTarget as HTMLElement).setPointerCapture?.(event.pointerId);
  };
  const onPointerMove = (event: ReactPointerEvent) => {
    if (start.current === null) return;
    dragged.current = Math.max(0, event.clientX - start.current);
    setOffset(dragged.current);
  };
  const onPointerUp = () => {
    if (start.current === null) return;
    start.current = null;
    if (dragged.current > TOAST_SWIPE_THRESHOLD_PX) dismissToast();
    dragged.current = 0;
    setOffset(0);
  };

  return (
    <ol ref={region} tabIndex={-1} aria-label="Notifications (F8)" className="toast-viewport">
      {toast && (
        <li
          key={toast.id}
          role={toast.open ? 'status' : undefined}
          aria-live="polite"
          aria-atomic="true"
          aria-hidden={toast.open ? undefined : true}
          data-state={toast.open ? 'open' : 'closed'}
          className={`toast${toast.variant === 'destructive' ? ' toast-destructive' : ''}`}
          style={offset ? { transform: `translateX(${offset}px)`, opacity: Math.max(0.2, 1 - offset / 200) } : undefined}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={onPointerUp}
          onMouseEnter={() => setPaused(true)}
          onMouseLeave={() => setPaused(false)}
          onFocus={() => setPaused(true)}
          onBlur={() => setPaused(false)}
        >
          <div className="toast-body">
            <p className="toast-title">{toast.title}</p>
            {toast.description && <p className="toast-description">{toast.description}</p>}
          </div>
          <button type="button" className="toast-close" onClick={dismissToast} aria-label="Dismiss notification" tabIndex={toast.open ? undefined : -1}>×</button>
        </li>
      )}
    </ol>
  );
}

/** The Toaster island mounted by the shell on every page. */
export default withErrorBoundary(ToastViewport, 'Toaster');
