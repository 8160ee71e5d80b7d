import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { createAppRouter } from './app/router';
import { initAuth } from './lib/auth';
import { queryClient } from './lib/query-client';
import { startTheme } from './lib/theme';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

startTheme();
initAuth();
const router = createAppRouter({ queryClient });

createRoot(root).render(
  <StrictMode>
    <App router={router} queryClient={queryClient} />
  </StrictMode>,
);
