import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { setInvalidLoginHandler } from './api/http';
import { setTokenFlag } from './api/storage';
import { App } from './app/App';
import { startNavigationProgress } from './app/progress';
import { router } from './app/router';
import { applySettingsToDocument, useSettings } from './app/settings';
import { initI18n } from './locale';
import './styles/global.css';

await initI18n();
// a dialog flag left by a closed page would silence the next sign-in-expired dialog
setTokenFlag(false);
// the dialog and logout live in their own chunk: the sign-in page rarely needs them
setInvalidLoginHandler(async (reason) => (await import('./app/invalid-login')).onInvalidLogin(reason));
applySettingsToDocument(useSettings.getState());
useSettings.subscribe(applySettingsToDocument);
startNavigationProgress(router);

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
