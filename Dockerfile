# Vigil's production image: `docker build -t vigil .`, then see compose.yaml and the README's
# "Production" section. .ci/production-build.ts runs these same steps without Docker (it reads this
# file) and test/deploy-files.test.ts checks what matters in it: keep the steps plain.

# Build stage: every dependency, the dev ones too, then dist/ (the server and the web interface).
# The full Debian image has the compiler better-sqlite3 falls back to without a prebuilt binary.
FROM node:20-bookworm AS build
WORKDIR /app
COPY package.json package-lock.json ./
# No sources yet, so `prepare` builds nothing: this layer is reused until the lockfile changes.
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build
# Only the production dependencies (native modules already compiled) go on to the runtime stage,
# less those only the build needs (TypeScript, esbuild, the web interface's packages: they are
# dependencies so that `npm ci --omit=dev && npm start` can build; see the script).
RUN npm prune --omit=dev --no-audit --no-fund
RUN npm uninstall --no-save --omit=dev --no-audit --no-fund $(node scripts/build-only-dependencies.mjs)

# Runtime stage: the same Node.js and Debian, no compiler, no dev dependencies, not root.
FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules/
COPY --from=build /app/dist ./dist/
COPY --from=build /app/bin ./bin/
COPY --from=build /app/content ./content/
# SQLite's default place (./data/vigil.db), writable by the image's `node` user (uid 1000, named
# by number so that Kubernetes' runAsNonRoot can verify it); mount a volume there to keep it, or
# set DATABASE_URL to PostgreSQL as compose.yaml does.
RUN mkdir data && chown 1000:1000 data
USER 1000:1000
EXPOSE 8080
# Liveness: the process answers. The server drains for up to 30 s after SIGTERM: stop it with
# a longer timeout than Docker's default 10 s (`docker stop -t 40`; compose.yaml sets it).
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/server.js"]
