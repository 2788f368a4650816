# addrflow: one image for every entrance (HTTP adapter, Kafka worker, file jobs).
#   docker build -t addrflow .
#   docker run --rm addrflow --help
# Node 24 runs the TypeScript sources natively (type stripping): no build step, no dev deps.
FROM node:24-slim

ENV NODE_ENV=production
WORKDIR /app

# dependencies first (cached while only sources change); the `node` npm package that the
# checkout uses to bring Node 24 is a dev dependency and is not needed on this base image
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

COPY bin ./bin
COPY src ./src
COPY workers ./workers
COPY schemas ./schemas

# the embedded default index is built on first use into .cache/ (mount a volume to keep it)
RUN mkdir -p /app/.cache /app/data && chown node:node /app/.cache /app/data
USER node

ENTRYPOINT ["node", "bin/addrflow.ts"]
CMD ["--help"]
