# syntax=docker/dockerfile:1
# SupportDesk: build with the full toolchain, run on a slim image with production dependencies only.
#
# Both stages run Node 24 (Active LTS): the project itself supports Node 20.19+ (package.json "engines"), but Node
# 20 left maintenance in April 2026. better-sqlite3 12.11.1, the only native dependency, declares Node 20 to 26
# in its published "engines" and is compiled here by the build stage for the runtime stage's Node (same image).
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
# better-sqlite3 compiles from source during npm ci.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
# What `npm ci` needs (its postinstall runs `prisma generate`), copied first so the layer caches.
COPY package.json package-lock.json prisma.config.ts ./
COPY prisma ./prisma
COPY src/config/database-url.ts ./src/config/database-url.ts
RUN npm ci
COPY tsconfig.json nest-cli.json ./
COPY src ./src
# The console (served at /console) is built from its own folder and talks to the server through the generated client.
COPY client ./client
COPY console ./console
RUN npm run build && npm prune --omit=dev

FROM ${NODE_IMAGE}
# A container is reached from outside it: it listens on every interface and answers any Host name (put the
# public name in ALLOWED_HOSTS to refuse others). Browser pages of other web origins are refused whatever the Host:
# behind a TLS proxy, name it in TRUSTED_PROXIES (or the page's origin in ALLOWED_ORIGINS, e.g. a Hugging Face
# Space's https://<space>.hf.space) so the Swagger UI's own https origin is recognised. Anonymous requests act as
# the built-in public tenant, as with `npm start`, so a single-user container (a laptop, a Hugging Face Space) works
# with no set-up; shared deployments set REQUIRE_API_KEY=true with ADMIN_API_KEY and CHAIN_KEY, or their *_FILE
# forms for Docker secrets (docker-compose.yml does).
ENV NODE_ENV=production \
    PORT=7860 \
    HOST=0.0.0.0 \
    ALLOWED_HOSTS=* \
    DATABASE_URL=file:/data/supportdesk.db \
    REQUIRE_API_KEY=false
WORKDIR /app
COPY --from=build /app/package.json /app/prisma.config.ts ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/prisma ./prisma
COPY --from=build /app/src/config/database-url.ts ./src/config/database-url.ts
# README.md is served as /metadata's readme_content; openenv.yaml is the OpenEnv manifest.
COPY README.md openenv.yaml ./
RUN mkdir -p /data && chown node:node /data && chmod 700 /data
USER node
VOLUME ["/data"]
EXPOSE 7860
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 7860) + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Validates the configuration, applies pending migrations, then serves; as PID 1 it gets SIGTERM directly and
# closes the database cleanly.
CMD ["node", "dist/main.js"]
