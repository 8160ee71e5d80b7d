import { resolve } from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';
import { aliases } from './scripts/build/aliases';
import { desktopIndexHtml } from './scripts/build/desktop-csp';
import { startupBundleGuard } from './scripts/build/startup-bundle-guard';

// Native modules must stay in node_modules (loaded with require at run time, rebuilt for
// Electron by electron-builder and unpacked from the asar, see electron-builder.yml).
const nativeDeps = ['better-sqlite3', '@napi-rs/keyring'];

/** The desktop renderer's <meta> CSP: the server of this build, never a wildcard (scripts/build/desktop-csp.ts). */
function desktopCspMeta(): Plugin {
  return {
    name: 'parley-desktop-csp-meta',
    transformIndexHtml: (html) => desktopIndexHtml(html, process.env.PARLEY_API_URL || undefined),
  };
}
const alias = aliases(import.meta.dirname);

export default defineConfig({
  main: {
    resolve: { alias },
    build: {
      // Every package.json dependency stays external (electron-vite's default); listed
      // explicitly so the native ones can never be bundled by accident.
      externalizeDeps: { include: nativeDeps },
      lib: { entry: resolve(import.meta.dirname, 'src/main/index.ts') },
    },
    // Firebase project and default server of a release build (src/main/config.ts); the environment at run
    // time still wins. None of these is a secret.
    define: {
      __PARLEY_BUILD_CONFIG__: JSON.stringify(
        Object.fromEntries(
          ['PARLEY_FIREBASE_API_KEY', 'PARLEY_FIREBASE_PROJECT_ID', 'PARLEY_FIREBASE_AUTH_DOMAIN', 'PARLEY_API_URL']
            .filter((key) => process.env[key])
            .map((key) => [key, process.env[key]]),
        ),
      ),
    },
  },
  preload: {
    resolve: { alias },
    build: {
      // A sandboxed preload cannot require() packages from node_modules: bundle everything
      // (zod and src/shared included); only electron stays external.
      externalizeDeps: false,
      lib: { entry: resolve(import.meta.dirname, 'src/preload/index.ts') },
      rolldownOptions: {
        // With "type": "module" electron-vite would emit ESM (index.mjs), but a sandboxed
        // preload must be CommonJS. Output: out/preload/index.cjs (src/main/index.ts loads it).
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(import.meta.dirname, 'src/renderer'),
    resolve: { alias },
    build: {
      // electron-vite leaves bundles unminified; the renderer is the one worth shrinking (parse time at start-up).
      minify: true,
      rolldownOptions: {
        input: resolve(import.meta.dirname, 'src/renderer/index.html'),
      },
    },
    plugins: [
      react(),
      tailwindcss(),
      desktopCspMeta(),
      // React Flow and the two canvas editors load on first visit of a canvas route (src/renderer/src/app/router.tsx).
      startupBundleGuard([/\/node_modules\/@xyflow\//, /\/src\/renderer\/src\/features\/(automation\/components\/bot-page|campaigns\/components\/campaign-page)\.tsx$/]),
    ],
    // Where the renderer finds the server and the Auth emulator (npm start passes them; empty = the defaults
    // in src/renderer/src/lib/config.ts).
    define: {
      'import.meta.env.PARLEY_API_URL': JSON.stringify(process.env.PARLEY_API_URL ?? ''),
      'import.meta.env.PARLEY_AUTH_EMULATOR': JSON.stringify(process.env.PARLEY_AUTH_EMULATOR ?? ''),
    },
  },
});
