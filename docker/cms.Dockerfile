FROM node:24-bookworm-slim
# No compiler: better-sqlite3 13 ships prebuilt Node-API binaries (linux-x64, linux-arm64, musl).
WORKDIR /app
COPY package.json package-lock.json ./
COPY providers ./providers
RUN npm install --no-save --no-audit --no-fund
COPY . .
EXPOSE 1337
CMD ["npm", "run", "develop"]
