#!/bin/sh
# Starts the Auth emulator; its accounts are exported to /data when it stops and imported again at the next
# start, as scripts/stack.ts does for local runs.
set -eu
set -- --export-on-exit /data
if [ -f /data/firebase-export-metadata.json ]; then set -- "$@" --import /data; fi
exec firebase emulators:start --only auth --project demo-quire "$@"
