/**
 * Mounts the shell's React islands, the Toaster and the Paywall, the first time they have something to show (a toast,
 * an open paywall, or F8 for the notification area), so a page that never needs them never loads React for them. The
 * detail dialog of the list pages mounts the same way (`mountReactRoot`).
 */
import type { ComponentType } from 'react';
import { $toast } from '../stores/toast';
import { $paywall } from '../stores/paywall';

const mounted = new Map<string, Promise<void>>();

/** Loads React and a component, and renders it once (with `props`) into a new element at the end of the body, with this id. */
export function mountReactRoot<P extends object>(id: string, load: () => Promise<{ default: ComponentType<P> }>, props?: P): Promise<void> {
  let done = mounted.get(id);
  if (!done) {
    done = Promise.all([import('react'), import('react-dom/client'), load()]).then(([{ createElement }, { createRoot }, island]) => {
      const root = document.createElement('div');
      root.id = id;
      document.body.append(root);
      createRoot(root).render(createElement(island.default, props));
    });
    mounted.set(id, done);
  }
  return done;
}

const toaster = () => mountReactRoot('toaster-root', () => import('./Toaster'));
const paywall = () => mountReactRoot('paywall-root', () => import('./Paywall'));

/** Starts watching the toast and paywall stores and the F8 key. */
export function mountShellIslandsOnDemand(): void {
  $toast.subscribe((toast) => {
    if (toast?.open) void toaster();
  });
  $paywall.subscribe((state) => {
    if (state.open) void paywall();
  });
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'F8' || mounted.has('toaster-root')) return;
    event.preventDefault();
    void toaster().then(() => requestAnimationFrame(() => document.querySelector<HTMLElement>('.toast-viewport')?.focus()));
  });
}
