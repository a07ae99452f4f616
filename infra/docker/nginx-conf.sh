#!/bin/bash
# Writes nginx.conf to stdout: infra/nginx/quire.conf.template, the file scripts/stack.ts renders for local
# runs, filled from the container's environment. What renderNginxConfig derives from its settings is
# derived here in the same way; tests/ops/compose.test.ts checks that both write the same file.
#   NGINX_TEMPLATE   the template
#   GATEWAYS         the gateways, host:port, separated by spaces or commas
#   JOB_TIMEOUT_MS, TAG_MANAGER_ID, FIREBASE_API_KEY, FIREBASE_AUTH_DOMAIN, FIREBASE_PROJECT_ID,
#   FIREBASE_AUTH_EMULATOR_HOST: the gateway's settings of those names
#   RATE_LIMIT_PER_MINUTE: the gateway's setting of that name (default 120, the catalog's)
#   LISTEN_HOST, PORT, STATIC_ROOT, RUN_DIR, ACCESS_LOG, UPLOAD_LIMIT_MB: the template's own
set -euo pipefail

fail() {
  echo "nginx-conf: $*" >&2
  exit 1
}

RATE_LIMIT_PER_MINUTE=${RATE_LIMIT_PER_MINUTE:-120}
for name in JOB_TIMEOUT_MS UPLOAD_LIMIT_MB RATE_LIMIT_PER_MINUTE; do
  [[ ${!name:-} =~ ^[0-9]+$ ]] || fail "setting $name must be a whole number, not \"${!name:-}\""
done
[ -n "${GATEWAYS:-}" ] || fail 'GATEWAYS must name at least one gateway (host:port)'
export UPLOAD_LIMIT_MB=$((10#$UPLOAD_LIMIT_MB))

upstream=''
for gateway in ${GATEWAYS//,/ }; do
  upstream+="${upstream:+$'\n        '}server $gateway;"
done

# The container runs nginx as its own user, never as root.
export USER_DIRECTIVE=''
export GATEWAY_UPSTREAM="$upstream"
export PROXY_TIMEOUT_S=$(((10#$JOB_TIMEOUT_MS + 999) / 1000 + 60))
# As many tool calls at once as the limit (one, and the rest as a burst), then one more each 60/limit
# seconds; 0 turns it off.
rate=$((10#$RATE_LIMIT_PER_MINUTE))
limit='# RATE_LIMIT_PER_MINUTE=0: tool calls are not limited.'
if [ "$rate" -gt 0 ]; then limit="limit_req zone=quire_tools burst=$((rate - 1)) nodelay;"; fi
export RATE_LIMIT_RATE="$((rate > 0 ? rate : 1))r/m" TOOL_RATE_LIMIT="$limit"
if [[ ${LISTEN_HOST:-} == *:* && ${LISTEN_HOST} != \[* ]]; then export LISTEN_HOST="[$LISTEN_HOST]"; fi

# The CSP: the tag manager when the site loads one, sign-in's sources (the emulator's, else Google's for a
# real project), and the hashes of the site's inline scripts, which its build wrote beside it.
export CSP_TAG_MANAGER="${TAG_MANAGER_ID:+ https://www.googletagmanager.com}"
export CSP_AUTH_SCRIPT='' CSP_AUTH_CONNECT='' CSP_AUTH_FRAME='' CSP_AUTH_IMG=''
if [ -n "${FIREBASE_AUTH_EMULATOR_HOST:-}" ]; then
  CSP_AUTH_CONNECT=" http://$FIREBASE_AUTH_EMULATOR_HOST"
elif [ -n "${FIREBASE_API_KEY:-}" ]; then
  CSP_AUTH_SCRIPT=' https://apis.google.com'
  CSP_AUTH_CONNECT=' https://identitytoolkit.googleapis.com https://securetoken.googleapis.com'
  CSP_AUTH_FRAME=" https://${FIREBASE_AUTH_DOMAIN:-${FIREBASE_PROJECT_ID:-demo-quire}.firebaseapp.com}"
  CSP_AUTH_IMG=' https://*.googleusercontent.com'
fi
hashes=''
if [ -r "${STATIC_ROOT:-}/.csp-script-hashes" ]; then
  hashes=$(tr -s '[:space:]' ' ' <"$STATIC_ROOT/.csp-script-hashes" | sed 's/^ //; s/ $//')
fi
export CSP_SCRIPT_HASHES="${hashes:+ $hashes}"

# Each placeholder, and nothing else (nginx's own $variables stay), is replaced; each must have a value.
template=${NGINX_TEMPLATE:?NGINX_TEMPLATE must name the template}
IFS= read -r -d '' conf <"$template" || true
for name in $(grep -o '\${[A-Z][A-Z0-9_]*}' "$template" | sort -u | tr -d '${}'); do
  [ -n "${!name+set}" ] || fail "the template needs a value for $name"
  conf=${conf//"\${$name}"/"${!name}"}
done
printf '%s' "$conf"
