#!/usr/bin/env bash
# Installs what Quire needs to run and test on Debian or Ubuntu: system packages, then npm packages.
# Idempotent and quiet when everything is already there; safe to run before every start or test.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

# Debian packages the services run. Each service adds its engines here (LibreOffice, Chromium, fonts,
# PostgreSQL, Redis...), one package a line.
APT_PACKAGES=(
  qpdf          # pdf-editor: structural work, unlock
  ghostscript   # pdf-editor: compression and PDF/A (run as a separate program only; its libgs10-common brings the sRGB ICC profile PDF/A's output intent embeds)
  poppler-utils # pdftoppm, pdftotext
  mupdf-tools   # pdf-editor: redaction (mutool run: text under a box removed from the content, image pixels blanked); checks: sampled pages picked out
  ocrmypdf tesseract-ocr # pdf-extract: OCR (OCRmyPDF runs on Debian's /usr/bin/python3)
  tesseract-ocr-eng tesseract-ocr-spa tesseract-ocr-fra tesseract-ocr-deu tesseract-ocr-hin tesseract-ocr-ara # OCR's languages
  jbig2dec      # OCR of JBIG2 scans (Ghostscript reads CCITT itself)
  nginx-light   # the public front: static site and proxy to the gateway
  libreoffice-writer libreoffice-calc libreoffice-impress # office: Word, Excel, PowerPoint to PDF
  python3-uno   # office: the UNO helper that drives warm LibreOffice listeners (Debian's /usr/bin/python3)
  chromium      # renderer: HTML, web pages and screenshots to PDF (driven by playwright-core)
  fonts-liberation fonts-liberation2 fonts-crosextra-carlito fonts-crosextra-caladea # metric-compatible Microsoft fonts
  fonts-dejavu-core fonts-noto-core fonts-noto-cjk # wide script coverage, CJK included
  fonts-noto-color-emoji # emoji in converted pages and in the site's icons
  postgresql    # the site data when DATABASE_URL is set; the tests run both backends against a real server
  redis-server  # results shared by several gateways when REDIS_URL is set; the tests run a real one
  prometheus    # the operations tests scrape the running stack with a real Prometheus
  docker-compose # validates docker-compose.yml (config -q); no Docker engine needed
  unzip         # the tests list and test zip results (tests/lib/outcomes.ts, the scaffold's image template)
  build-essential python3 # node-gyp compiles better-sqlite3 from source during npm ci
)

log() { printf 'setup: %s\n' "$*"; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo "$@"
  else
    log "need root to run: $* (sudo is not installed)" >&2
    exit 1
  fi
}

install_apt_packages() {
  local missing=() pkg
  for pkg in "${APT_PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null | grep -qx installed; then
      missing+=("$pkg")
    fi
  done
  [ "${#missing[@]}" -eq 0 ] && return 0
  if ! command -v apt-get >/dev/null 2>&1; then
    log "missing system packages (${missing[*]}) and no apt-get: install them by hand" >&2
    exit 1
  fi
  log "installing ${missing[*]}"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

install_npm_packages() {
  if [ ! -d node_modules ] || [ ! -f node_modules/.package-lock.json ] ||
    [ package-lock.json -nt node_modules/.package-lock.json ]; then
    log "installing npm packages (npm ci)"
    npm ci --no-audit --no-fund --loglevel=error
  fi
  # better-sqlite3 is compiled from source by its install script; make sure that really happened.
  if ! node -e "new (require('better-sqlite3'))(':memory:').close()" >/dev/null 2>&1; then
    log "building better-sqlite3"
    npm rebuild better-sqlite3 --loglevel=error
    node -e "new (require('better-sqlite3'))(':memory:').close()"
  fi
}

install_apt_packages
install_npm_packages
