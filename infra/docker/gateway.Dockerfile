# The gateway's image, and nginx's, which serves the site built here (one file, so that nginx's image can
# take the site from this build):
#   docker build -f infra/docker/gateway.Dockerfile --target gateway .
#   docker build -f infra/docker/gateway.Dockerfile --target nginx --build-arg SITE_URL=https://quire.example .
# SITE_URL and TAG_MANAGER_ID are fixed in the site when it is built (README, "Settings").

# Only the package manifests, so that npm ci is cached until a dependency changes.
FROM node:20-bookworm-slim AS manifests
WORKDIR /src
COPY . .
RUN mkdir /manifests && find . \( -name package.json -o -name package-lock.json \) -exec cp --parents -t /manifests {} +

# The site: every workspace with the dev tools, then `npm run build` (type checks, then frontend/dist).
FROM node:20-bookworm-slim AS site
WORKDIR /app
COPY --from=manifests /manifests/ ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
ARG SITE_URL
ARG TAG_MANAGER_ID
# An empty SITE_URL is no setting: the site's default address.
RUN if [ -z "${SITE_URL:-}" ]; then unset SITE_URL; fi; npm run build
# nginx's config renderer, the one `npm start` uses, bundled with the catalog and the settings' schemas
# into one file that node runs alone in nginx's image.
RUN npx esbuild infra/docker/nginx-conf.ts --bundle --platform=node --format=esm --target=node20 \
    --log-level=warning --outfile=/app/nginx-conf.mjs

# The gateway's dependencies, esbuild among them (the TypeScript loader's compiler). Install
# scripts run only for better-sqlite3, as scripts/setup.sh does: downloaded, or compiled from source.
FROM node:20-bookworm-slim AS gateway-deps
RUN apt-get update && apt-get install -y --no-install-recommends build-essential python3 \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY --from=manifests /manifests/ ./
RUN set -eux; \
    flags="--omit=dev --workspace gateway --ignore-scripts --no-audit --no-fund"; \
    npm ci $flags; \
    npm rebuild better-sqlite3; \
    node -e "new (require('better-sqlite3'))(':memory:').close()"; \
    node --input-type=module --eval "await import('esbuild')"

FROM node:20-bookworm-slim AS gateway
RUN apt-get update && apt-get install -y --no-install-recommends tini && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY --from=gateway-deps /app ./
COPY tsconfig.json ./
COPY packages/catalog/src packages/catalog/src
COPY packages/base/src packages/base/src
COPY packages/detect/src packages/detect/src
COPY packages/pdf/src packages/pdf/src
COPY packages/http/src packages/http/src
COPY gateway/src gateway/src
COPY infra/docker/healthcheck.mjs /usr/local/lib/quire/healthcheck.mjs
# The site's data when no DATABASE_URL is set, and results when no REDIS_URL is: a volume in compose.
RUN mkdir /data && chown node:node /data

ENV NODE_ENV=production HOST=0.0.0.0 PORT=3100 DATA_DIR=/data
USER node
EXPOSE 3100
HEALTHCHECK --interval=15s --timeout=10s --start-period=30s --retries=3 \
    CMD node /usr/local/lib/quire/healthcheck.mjs "http://127.0.0.1:$PORT/healthz"
ENTRYPOINT ["tini", "--"]
CMD ["node", "--import", "@quire/base/ts-loader", "gateway/src/main.ts"]

# nginx in front: Debian's nginx-light, the same nginx as local runs (scripts/setup.sh), with the site and
# the template, rendered when the container starts by the renderer `npm start` uses (infra/nginx/render.ts,
# bundled above; node is copied from the build stage, and needs only libstdc++ beside it).
FROM debian:bookworm-slim AS nginx
RUN apt-get update && apt-get install -y --no-install-recommends nginx-light curl tini libstdc++6 \
    && rm -rf /var/lib/apt/lists/*
COPY --from=site /usr/local/bin/node /usr/local/bin/node
COPY infra/nginx/quire.conf.template /etc/quire/nginx.conf.template
COPY --from=site /app/nginx-conf.mjs /usr/local/lib/quire/nginx-conf.mjs
COPY --from=site /app/frontend/dist /srv/quire/site

ENV NGINX_TEMPLATE=/etc/quire/nginx.conf.template STATIC_ROOT=/srv/quire/site RUN_DIR=/tmp/quire-nginx \
    ACCESS_LOG=/dev/stdout LISTEN_HOST=0.0.0.0 PORT=8080
USER www-data
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=5s --start-period=10s --retries=3 \
    CMD curl -fsS -o /dev/null "http://127.0.0.1:$PORT/" || exit 1
ENTRYPOINT ["tini", "--"]
CMD ["sh", "-c", "mkdir -p \"$RUN_DIR\" && node /usr/local/lib/quire/nginx-conf.mjs > \"$RUN_DIR/nginx.conf\" && exec nginx -c \"$RUN_DIR/nginx.conf\" -e stderr -g 'daemon off;'"]
