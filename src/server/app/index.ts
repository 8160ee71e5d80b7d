/** The composition root's public face: src/server/index.ts and the tests build the server with buildApp. */
export { buildApp } from './build-app';
