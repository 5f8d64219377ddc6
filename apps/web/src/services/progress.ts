import NProgress from 'nprogress';
import 'nprogress/nprogress.css';
import type { createBrowserRouter } from 'react-router';

type AppRouter = ReturnType<typeof createBrowserRouter>;

/** Spec 2 guard 1 and spec 9: a progress bar on every navigation, finished when it settles. */
export function startNavigationProgress(router: Pick<AppRouter, 'subscribe'>): () => void {
  // trickleRate is a real nprogress 0.2 option that its type definitions leave out
  const options: Partial<NProgress.NProgressOptions> & { trickleRate: number } = {
    minimum: 0.08,
    speed: 200,
    trickle: true,
    trickleRate: 0.02,
    trickleSpeed: 800,
    showSpinner: false,
  };
  NProgress.configure(options);
  return router.subscribe((state) => {
    if (state.navigation.state !== 'idle') NProgress.start();
    else NProgress.done();
  });
}
