# syntax=docker/dockerfile:1
# The Parley server as a business runs it: docs/operations.md, "Production build and image".
#   build    every dependency, then `npm run build:server` (esbuild) -> dist/server
#   runtime  production dependencies only (`npm ci --omit=dev`), the bundle and its migrations, a non-root user.
# Meant for a read-only root file system: the server writes only to PARLEY_DATA_DIR (/data, a volume) and /tmp.
ARG NODE_IMAGE=node:20-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
# No install scripts: the server needs none (they build or download the desktop app's native parts).
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json ./
COPY scripts/build ./scripts/build
COPY src/server ./src/server
COPY src/shared ./src/shared
RUN npm run build:server

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=4000 \
    PARLEY_DATA_DIR=/data
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund --ignore-scripts && npm cache clean --force
COPY --from=build /app/dist ./dist
# The image's own non-root user (node, uid 1000) owns the data folder and nothing else.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 4000
# node, not curl (the slim image has none): ready means the database answers and the migrations are applied.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 4000) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "dist/server/server.js"]
CMD ["serve"]
