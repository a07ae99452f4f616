# The Firebase Auth emulator of compose's `dev` profile: sign-in without a Firebase project, for project
# demo-quire, its accounts kept in /data. firebase-tools at the version the workspace locks (Node only).
FROM node:20-bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends tini && rm -rf /var/lib/apt/lists/*
COPY package-lock.json /tmp/
RUN npm install --global --ignore-scripts --no-audit --no-fund \
        "firebase-tools@$(node -p "require('/tmp/package-lock.json').packages['node_modules/firebase-tools'].version")" \
    && rm /tmp/package-lock.json
COPY infra/docker/auth-emulator.json /home/node/emulator/firebase.json
COPY infra/docker/auth-emulator.sh /usr/local/bin/quire-auth-emulator
COPY infra/docker/healthcheck.mjs /usr/local/lib/quire/healthcheck.mjs
RUN mkdir /data && chown node:node /data /home/node/emulator

ENV NO_UPDATE_NOTIFIER=1 FORCE_COLOR=0
WORKDIR /home/node/emulator
USER node
EXPOSE 9099
HEALTHCHECK --interval=10s --timeout=10s --start-period=60s --retries=3 \
    CMD node /usr/local/lib/quire/healthcheck.mjs http://127.0.0.1:9099/
ENTRYPOINT ["tini", "--"]
CMD ["quire-auth-emulator"]
