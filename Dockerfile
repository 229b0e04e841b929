# Vetted's image: one image for every role. The command picks it: `api` (the default; serves the reviewer
# console at /console), `worker`, `migrate`, or any other `vetted` command. docker-compose.yml runs them all.
#
# Stage 1 compiles the TypeScript to dist/ and builds the console with the development dependencies; stage 2
# holds only the runtime dependencies, the compiled code and the files Vetted reads at run time.

FROM node:20.20-bookworm-slim AS build
WORKDIR /app
# Dependencies first, so a source change reuses this layer. No scripts: `prepare` would build before the sources
# are here; the build runs below. The lockfile names the client workspace, so its manifest comes along.
COPY package.json package-lock.json ./
COPY clients/typescript/package.json ./clients/typescript/
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY api ./api
COPY workers ./workers
COPY schemas ./schemas
COPY console ./console
RUN npm run build && npm run console:build

FROM node:20.20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080
WORKDIR /app
# --ignore-scripts: `prepare` needs the build tools this stage leaves out; the one install script among the
# runtime dependencies (msgpackr-extract, BullMQ's optional native decoder) has a JavaScript fallback.
COPY package.json package-lock.json ./
COPY clients/typescript/package.json ./clients/typescript/
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
# Read at run time from the package root: migrations, contract schemas, sample models (demo, simulator), the
# reply word lists; then the compiled code and the console from the build stage.
COPY bin ./bin
COPY drizzle ./drizzle
COPY schemas ./schemas
COPY examples ./examples
COPY src/review/reply/words ./src/review/reply/words
COPY src/builders/words ./src/builders/words
COPY src/reading/words ./src/reading/words
COPY --from=build /app/dist/src ./dist/src
COPY --from=build /app/dist/api ./dist/api
COPY --from=build /app/dist/workers ./dist/workers
COPY --from=build /app/console/dist ./console/dist
USER node
EXPOSE 8080
# Readiness, not liveness: PostgreSQL and Redis answer. Only the api role serves HTTP; docker-compose.yml turns
# the check off for the others.
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/api/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "bin/vetted.mjs"]
CMD ["api"]
