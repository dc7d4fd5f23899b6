import { Component, createElement, type ComponentType, type ReactNode } from 'react';
import { islandFault, RENDER_FAILURE } from '../lib/domain/site/render-failure';

interface State {
  error: Error | null;
}

/** Spec section 8: a render failure shows the application error text and the error message instead of the island. */
export default class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error): void {
    console.error('Render failure:', error);
  }

  override render(): ReactNode {
    if (!this.state.error) return this.props.children;
    return (
      <div role="alert" className="app-error" data-testid="render-failure">
        <p>{RENDER_FAILURE}</p>
        <p className="app-error-message">{this.state.error.message}</p>
      </div>
    );
  }
}

/** Throws the test fault of ISLAND_FAULTS builds when the page asks for this island's; renders its children otherwise. */
function FaultPoint({ name, children }: { name: string; children: ReactNode }): ReactNode {
  const fault = islandFault(name);
  if (fault) throw fault;
  return children;
}

/** An island inside the spec's error boundary: a failure anywhere in it shows the render-failure message in its place. */
export function withErrorBoundary<P extends object>(Island: ComponentType<P>, name: string): ComponentType<P> {
  const Bounded = (props: P) => (
    <ErrorBoundary>
      <FaultPoint name={name}>{createElement(Island, props)}</FaultPoint>
    </ErrorBoundary>
  );
  Bounded.displayName = `Bounded(${name})`;
  return Bounded;
}
