FROM node:20-bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
COPY providers ./providers
RUN npm install --no-save --no-audit --no-fund
COPY . .
EXPOSE 1337
CMD ["npm", "run", "develop"]
