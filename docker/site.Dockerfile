FROM node:24-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
# The npm workspaces (packages/*): npm ci links them, and builds the page cache's dist/ (prepare).
COPY packages ./packages
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build
# What `npm start` runs, without npm in between (so SIGTERM reaches the server): plain Node on
# the bundled server, no TypeScript runtime.
ENV NODE_ENV=production
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s CMD ["node", "-e", "fetch('http://127.0.0.1:3000/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "build/server-entry.mjs"]
