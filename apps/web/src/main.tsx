import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
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
