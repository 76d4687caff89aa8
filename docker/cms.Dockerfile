FROM node:24-bookworm-slim
# No compiler: better-sqlite3 13 ships prebuilt Node-API binaries (linux-x64, linux-arm64, musl).
# Built from the repository's root (docker-compose.yml): the CMS installs its @cms-site packages
# from ../packages (file: dependencies, copied in: cms/.npmrc). What is sent: cms.Dockerfile.dockerignore.
WORKDIR /app/cms
COPY packages /app/packages
COPY cms/package.json cms/package-lock.json cms/.npmrc ./
COPY cms/providers ./providers
RUN npm install --no-save --no-audit --no-fund
COPY cms .
# The admin panel, built into the image. Building needs no real secret: placeholders, so that
# scripts/ensure-env.js writes no .env into the image (the secrets come from the environment).
RUN APP_KEYS=build API_TOKEN_SALT=build ADMIN_JWT_SECRET=build TRANSFER_TOKEN_SALT=build \
    JWT_SECRET=build ENCRYPTION_KEY=build STRAPI_TELEMETRY_DISABLED=true npm run build
EXPOSE 1337
# What `npm start` runs, without npm in between: on PostgreSQL each replica's start waits for the
# others' (scripts/start-lock.js), so replicas started together seed an empty database once.
CMD ["node", "server.js"]
