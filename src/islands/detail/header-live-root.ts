/**
 * The stock page's live header (price, earnings badge, copy link, watch) as one React tree: the page renders it to
 * HTML at build time and the page script hydrates the same tree after the first paint.
 */
import { createElement, useEffect, type ReactElement, type ReactNode } from 'react';
import ErrorBoundary from '../ErrorBoundary';
import HeaderLive from './HeaderLive';

/** React ids of the live header, the same on the server and in the browser. */
export const HEADER_LIVE_ID_PREFIX = 'hl-';

/** Calls `onMount` once the tree is live in the browser (never on the server); renders its children unchanged. */
function Mounted({ onMount, children }: { onMount?: () => void; children?: ReactNode }): ReactNode {
  useEffect(() => onMount?.(), [onMount]);
  return children;
}

export function headerLiveElement(props: { ticker: string; reportDate: string }, onMount?: () => void): ReactElement {
  return createElement(Mounted, { onMount }, createElement(ErrorBoundary, null, createElement(HeaderLive, props)));
}
