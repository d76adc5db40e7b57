# syntax=docker/dockerfile:1
# One image for every process of the Procfile (web, worker, release); docker-compose.yml picks the command.
# Node 22 LTS (Node 20 is past its end of life); the code also runs on Node 20.19+ (package.json engines, CI).

# The image of the release being replaced (`docker build --build-arg PREVIOUS_IMAGE=<registry>/nurture-home:<live tag>`):
# its SPA assets are kept in this image, so pages its processes served keep loading during a rolling deploy
# (docs/decisions/workers.md). Unset: the base image, which has none.
ARG PREVIOUS_IMAGE=node:22-bookworm-slim

# ---- build: every dependency, then the SPA and the server bundles
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY shared/package.json shared/
COPY api/package.json api/
COPY workers/package.json workers/
COPY web/package.json web/
COPY migrations/package.json migrations/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# ---- previous: the live release's own hashed assets (one release back, never its carried-over ones)
FROM ${PREVIOUS_IMAGE} AS previous
RUN mkdir -p /app/web/dist/assets

# ---- runtime: production dependencies and the built output only, as a non-root user
FROM node:22-bookworm-slim AS runtime
ENV NODE_ENV=production PORT=5000
WORKDIR /app
COPY package.json package-lock.json ./
COPY shared/package.json shared/
COPY api/package.json api/
COPY workers/package.json workers/
COPY web/package.json web/
COPY migrations/package.json migrations/
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/api/dist api/dist
COPY --from=build /app/api/public api/public
COPY --from=build /app/workers/dist workers/dist
COPY --from=build /app/migrations/dist migrations/dist
COPY --from=build /app/migrations/sql migrations/sql
COPY --from=build /app/web/dist web/dist
COPY --from=previous /app/web/dist/assets web/dist/previous-assets
# The server render of the public pages (the API loads it at start; without it pages render in the browser).
COPY --from=build /app/web/dist-server web/dist-server
COPY Procfile ./
# Files the processes write (uploads, export files, the mail outbox) live under .local: a volume in compose.
RUN mkdir -p .local/uploads .local/exports .local/mail-outbox && chown -R node:node .local
USER node
EXPOSE 5000
# The API's liveness; the worker service overrides it with its heartbeat check (docker-compose.yml).
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||5000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# The preload starts OpenTelemetry tracing when OTEL_EXPORTER_OTLP_ENDPOINT is set (and loads nothing otherwise).
CMD ["node", "--import", "./api/dist/instrument.js", "api/dist/main.js"]
