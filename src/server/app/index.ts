/** The composition root's public face: src/server/index.ts and the tests build the server with buildApp. */
export { buildApp, type AppOptions } from './build-app';
