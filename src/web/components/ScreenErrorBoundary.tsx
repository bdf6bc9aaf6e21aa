import { Component, type ReactNode } from 'react';

interface State {
  failed: boolean;
}

/**
 * A screen that fails to render or to load its code (typically: a new version was deployed and
 * this tab asks for a file that no longer exists) shows a way out instead of a blank page.
 */
export class ScreenErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: unknown) {
    console.error(error);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <section role="alert" className="mx-auto max-w-md py-16 text-center">
        <h1 className="text-2xl font-bold">This page could not be shown</h1>
        <p className="mt-4 text-slate-600 dark:text-slate-300">Inkwell may have been updated since this tab opened.</p>
        <button
          type="button"
          onClick={() => window.location.reload()}
          className="mt-6 rounded-md bg-blue-700 px-4 py-2 font-medium text-white hover:bg-blue-800"
        >
          Reload the page
        </button>
      </section>
    );
  }
}
