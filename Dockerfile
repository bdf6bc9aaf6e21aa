# Inkwell container image. Not built in CI here (these machines have no Docker engine);
# see docs/deploy.md. Build: docker build -t inkwell .

# --- build: all dependencies, the web app and the server bundle, then only production dependencies ---
FROM node:24-slim AS build
WORKDIR /app
# better-sqlite3 and @node-rs/argon2 ship prebuilt binaries for linux x64/arm64 glibc;
# the toolchain is only a fallback for other platforms.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
RUN npm run build && npm prune --omit=dev

# --- runtime: Node and the app, running as the unprivileged "node" user ---
FROM node:24-slim
# MALLOC_ARENA_MAX: image decoding in libuv's threads fragments glibc's per-thread arenas (decision 0042).
ENV NODE_ENV=production \
    MALLOC_ARENA_MAX=2 \
    INKWELL_SKIP_WEB_BUILD=true \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/src ./src
COPY --from=build --chown=node:node /app/dist ./dist
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
# Exec form: the server is PID 1's child-free process and receives SIGTERM itself (graceful drain).
CMD ["node", "--max-semi-space-size=16", "--max-old-space-size=256", "dist/server/main.js"]
