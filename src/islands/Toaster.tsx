import { useEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { useStore } from '@nanostores/react';
import { $toast, dismissToast } from '../stores/toast';
import { TOAST_SWIPE_THRESHOLD_PX } from '../lib/domain/ui';
import ErrorBoundary from './ErrorBoundary';

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

  useEffect(() => {
    setOffset(0);
    if (!toast || paused) return;
    const timer = setTimeout(dismissToast, toast.durationMs);
    return () => clearTimeout(timer);
  }, [toast, paused]);

  const onPointerDown = (event: ReactPointerEvent) => {
    start.current = event.clientX;
    (event.currentTarget as HTMLElement).setPointerCapture?.(event.pointerId);
  };
  const onPointerMove = (event: ReactPointerEvent) => {
    if (start.current !== null) setOffset(Math.max(0, event.clientX - start.current));
  };
  const onPointerUp = () => {
    if (start.current === null) return;
    start.current = null;
    if (offset > TOAST_SWIPE_THRESHOLD_PX) dismissToast();
    else setOffset(0);
  };

  return (
    <ol ref={region} tabIndex={-1} aria-label="Notifications (F8)" className="toast-viewport">
      {toast && (
        <li
          key={toast.id}
          role="status"
          aria-live="polite"
          aria-atomic="true"
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
          <button type="button" className="toast-close" onClick={dismissToast} aria-label="Dismiss notification">×</button>
        </li>
      )}
    </ol>
  );
}

/** The Toaster island mounted by the shell on every page. */
export default function Toaster() {
  return (
    <ErrorBoundary>
      <ToastViewport />
    </ErrorBoundary>
  );
}
