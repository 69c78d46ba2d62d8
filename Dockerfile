# Portcullis gateway image. Build stage: native modules (better-sqlite3, isolated-vm) need python3, make and g++
# when no prebuilt binary fits; the TypeScript is compiled to dist/ and dev dependencies are pruned.
# Run stage: the same slim base (same glibc as the native build), unprivileged `node` user, no compilers.

FROM node:20-bookworm-slim AS build
WORKDIR /app
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
# Read at run time relative to dist/: bundled Safe Tool Specs and server catalog, sandbox policies, SQL migrations.
COPY catalog ./catalog
COPY policies ./policies
COPY migrations ./migrations
COPY deploy/portcullis.docker.yaml /etc/portcullis/portcullis.yaml
RUN mkdir -p /app/data && chown node:node /app/data
USER node
VOLUME ["/app/data"]
EXPOSE 8848
# isolated-vm needs --no-node-snapshot on Node 20+.
CMD ["node", "--no-node-snapshot", "dist/main.js", "serve", "--config", "/etc/portcullis/portcullis.yaml"]
