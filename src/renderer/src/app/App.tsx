import { getDesktop } from '../lib/desktop';

export function App() {
  const desktop = getDesktop();
  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-50 p-8 text-slate-900 dark:bg-slate-950 dark:text-slate-100">
      <div className="max-w-md text-center">
        <h1 className="text-3xl font-semibold tracking-tight">Parley</h1>
        <p className="mt-3 text-slate-600 dark:text-slate-400">The web UI is being built.</p>
        <p className="mt-6 text-xs text-slate-500">
          {desktop ? `Desktop app on ${desktop.platform} (Electron ${desktop.versions.electron})` : 'Web mode'}
        </p>
      </div>
    </main>
  );
}
