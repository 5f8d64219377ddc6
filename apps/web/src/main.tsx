import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { setInvalidLoginHandler, setStepUpHandler } from './api/http';
import { setTokenFlag } from './api/storage';
import { App } from './app/App';
import { router } from './app/router';
import { initI18n } from './locale';
import { startNavigationProgress } from './services/progress';
import { applySettingsToDocument, useSettings } from './services/settings';
import './styles/global.css';

await initI18n();
// a dialog flag left by a closed page would silence the next sign-in-expired dialog
setTokenFlag(false);
// the dialog and logout live in their own chunk: the sign-in page rarely needs them
setInvalidLoginHandler(async (reason) => (await import('./app/invalid-login')).onInvalidLogin(reason));
// the second factor asked again (1022): the verify dialog, loaded when first needed
setStepUpHandler(async () => (await import('./components/second-factor/StepUpDialog')).askStepUp());
applySettingsToDocument(useSettings.getState());
useSettings.subscribe(applySettingsToDocument);
startNavigationProgress(router);

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
const app = (
  <StrictMode>
    <App />
  </StrictMode>
);

/** The router's first match is loaded (the lazy route's code, its loader run). */
const routerReady = () =>
  new Promise<void>((resolve) => {
    if (router.state.initialized) return resolve();
    const stop = router.subscribe((state) => {
      if (!state.initialized) return;
      stop();
      resolve();
    });
  });

// the sign-in page came prerendered (login.html, ADR 041): once its route's code is in, React takes over
// the form the visitor already sees instead of drawing it again
if (root.firstElementChild) {
  await routerReady();
  // as a transition, React hydrates in slices that yield to the browser between them instead of one long
  // task: a keystroke or a click on the form meanwhile is answered at once (React hydrates what it hits first)
  if (router.state.location.pathname === '/login') startTransition(() => void hydrateRoot(root, app));
  else {
    root.textContent = '';
    createRoot(root).render(app);
  }
} else {
  createRoot(root).render(app);
}
