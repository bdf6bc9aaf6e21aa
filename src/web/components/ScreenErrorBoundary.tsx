import { siteInfo } from './siteInfo.ts';
import { Component, type ReactNode } from 'react';
import { serverReachable } from '../api/serverReachable.ts';

interface State {
  failed: boolean;
  /** What a look at the server found: null while looking. */
  serverReachable: boolean | null;
}

/**
 * A screen that fails to render or to load its code shows a way out instead of a blank page, and
 * says which of the two usual causes it is: the server cannot be reached (offline, server down),
 * or it answers but this tab asks for code a new version no longer has (Inkwell was updated).
 */
export class ScreenErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { failed: false, serverReachable: null };

  static getDerivedStateFromError(): Partial<State> {
    return { failed: true };
  }

  override componentDidCatch(error: unknown) {
    console.error(error);
    void serverReachable().then((ok) => this.setState({ serverReachable: ok }));
  }

  override render() {
    const { failed, serverReachable } = this.state;
    if (!failed) return this.props.children;
    return (
      <section role="alert" className="mx-auto max-w-md py-16 text-center">
        <h1 className="text-2xl font-bold">This page could not be shown</h1>
        {serverReachable !== null && (
          <>
            <p className="mt-4 text-slate-600 dark:text-slate-300">
              {serverReachable
                ? `${siteInfo().title} may have been updated since this tab opened.`
                : 'The server could not be reached. Check your connection, then try again.'}
            </p>
            <button type="button" onClick={() => window.location.reload()} className="screen-error-retry">
              {serverReachable ? 'Reload the page' : 'Try again'}
            </button>
          </>
        )}
      </section>
    );
  }
}
