import { Component, type ReactNode } from 'react';

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
      <div role="alert" className="app-error">
        <p>Unable to load application. Please try refreshing the page or contact support if the problem persists.</p>
        <p className="app-error-message">{this.state.error.message}</p>
      </div>
    );
  }
}
