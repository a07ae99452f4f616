# One image per service; the services differ only by name, port and engines:
#   docker build -f infra/docker/service.Dockerfile --build-arg SERVICE=office --build-arg PORT=3102 .
# SERVICE is a folder of services/, PORT its port in the catalog (packages/catalog, `services`). The
# service's TypeScript runs through @quire/base's loader, as scripts/stack.ts runs it.

# Only the package manifests, so that npm ci is cached until a dependency changes.
FROM node:20-bookworm-slim AS manifests
WORKDIR /src
COPY . .
RUN mkdir /manifests && find . \( -name package.json -o -name package-lock.json \) -exec cp --parents -t /manifests {} +

# The service's own dependencies, esbuild among them (the TypeScript loader's compiler).
# No install scripts: none of these needs one.
FROM node:20-bookworm-slim AS deps
ARG SERVICE
WORKDIR /app
COPY --from=manifests /manifests/ ./
RUN set -eux; \
    flags="--omit=dev --workspace services/$SERVICE --ignore-scripts --no-audit --no-fund"; \
    npm ci $flags; \
    node --input-type=module --eval "await import('esbuild')"

FROM node:20-bookworm-slim
ARG SERVICE
ARG PORT
# Every service checks its results with qpdf, Poppler and MuPDF (verification, in packages/pdf), where URW's
# fonts stand in for the PDF standard fonts; then each service's own engines, as scripts/setup.sh installs them. Ghostscript
# pulls in libgs10-common, whose sRGB ICC profile (/usr/share/color/icc/ghostscript/srgb.icc) PDF/A embeds.
RUN set -eux; \
    test -n "$PORT" || { echo "the build argument PORT must be the service's port" >&2; exit 1; }; \
    fonts="fonts-liberation fonts-liberation2 fonts-crosextra-carlito fonts-crosextra-caladea \
        fonts-dejavu-core fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji"; \
    case "$SERVICE" in \
        pdf-editor) engines="ghostscript" ;; \
        pdf-extract) engines="ghostscript ocrmypdf tesseract-ocr tesseract-ocr-eng tesseract-ocr-spa tesseract-ocr-fra \
            tesseract-ocr-deu tesseract-ocr-hin tesseract-ocr-ara jbig2dec" ;; \
        office) engines="libreoffice-writer libreoffice-calc libreoffice-impress python3-uno $fonts" ;; \
        renderer) engines="chromium ca-certificates $fonts" ;; \
        image) engines="" ;; \
        *) echo "unknown service: $SERVICE" >&2; exit 1 ;; \
    esac; \
    apt-get update; \
    apt-get install -y --no-install-recommends tini qpdf poppler-utils poppler-data mupdf-tools fonts-urw-base35 $engines; \
    rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY --from=deps /app ./
COPY tsconfig.json ./
COPY packages/catalog/src packages/catalog/src
COPY packages/base/src packages/base/src
COPY packages/detect/src packages/detect/src
COPY packages/pdf/src packages/pdf/src
COPY packages/http/src packages/http/src
COPY packages/service-kit/src packages/service-kit/src
COPY services/${SERVICE}/src services/${SERVICE}/src
COPY infra/docker/healthcheck.mjs /usr/local/lib/quire/healthcheck.mjs

ENV NODE_ENV=production HOST=0.0.0.0 PORT=${PORT} SERVICE=${SERVICE}
USER node
EXPOSE ${PORT}
HEALTHCHECK --interval=15s --timeout=10s --start-period=60s --retries=3 \
    CMD node /usr/local/lib/quire/healthcheck.mjs "http://127.0.0.1:$PORT/health"
ENTRYPOINT ["tini", "--"]
CMD ["sh", "-c", "exec node --import @quire/base/ts-loader \"services/$SERVICE/src/main.ts\""]
