# The gateway as a container image: the single binary (Bun, the code and a static ffmpeg in one
# executable, docs/deployment.md) on Debian 12 slim, run as a non-root user with its database and
# media in the /data volume. docs/docker.md: running it, the first key, upgrades, backups, sizes.
#
#   docker build -t wa-session-gateway .
#   docker buildx build --platform linux/amd64,linux/arm64 -t …/wa-session-gateway .
#
# The build stage runs on the building machine's own CPU ($BUILDPLATFORM) for either target: Bun
# cross-compiles the arm64 executable on x64 (and the reverse), so an arm64 image needs no
# emulated npm ci. Only the last stage's one RUN executes the target's own programs.

FROM --platform=$BUILDPLATFORM node:20-bookworm-slim AS build
# better-sqlite3 compiles during npm ci when no prebuilt addon can be fetched; the binary leaves
# it out (Bun brings bun:sqlite), but npm ci must still succeed. node-gyp takes Node's headers from
# the image instead of downloading them.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
ENV npm_config_nodedir=/usr/local
# The npm that wrote package-lock.json: the image's own (10.8) reads its optional platform
# packages as missing ("Missing: @esbuild/linux-x64@… from lock file") and npm ci stops.
ARG NPM_VERSION=11.19.1
RUN npm install --global --no-audit --no-fund "npm@$NPM_VERSION"
WORKDIR /src
COPY . .
# The prepare script applies patches/ (libsignal's, which the binary carries) and builds dist/.
RUN npm ci --no-audit --no-fund
ARG TARGETARCH
RUN case "$TARGETARCH" in \
      amd64) target=linux-x64 file=wa-gateway ;; \
      arm64) target=linux-arm64 file=wa-gateway-linux-arm64 ;; \
      *) echo "TARGETARCH=$TARGETARCH: the image is built for linux/amd64 and linux/arm64 only" >&2; exit 1 ;; \
    esac \
 && node_modules/.bin/bun scripts/build-binary.ts "$target" \
 && install -D -m 0755 "dist/$file" /out/wa-gateway

# The target's platform said outright (Docker's default anyway): some builders (buildah 1.28) keep
# the build stage's $BUILDPLATFORM for the stages after it.
FROM --platform=$TARGETPLATFORM debian:bookworm-slim
# tini as PID 1: it hands docker stop's SIGTERM to the gateway (which then stops cleanly, see
# docs/deployment.md "Stopping") and reaps any orphan. uid 10001 owns /data, and nothing else.
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin /var/log/apt /var/log/dpkg.log \
 && groupadd --system --gid 10001 gateway \
 && useradd --system --uid 10001 --gid gateway --home-dir /data --no-create-home --shell /usr/sbin/nologin gateway \
 && install -d -o gateway -g gateway -m 0700 /data
COPY --from=build /out/wa-gateway /usr/local/bin/wa-gateway
COPY deploy/docker/healthcheck.sh /usr/local/bin/wa-gateway-healthcheck
# The database and received media in the volume (media/ beside the database). ffmpeg is
# extracted from the binary on first use into CACHE_DIRECTORY (the container's /tmp), not /data.
ENV DATABASE_PATH=/data/gateway.db \
    HOST=0.0.0.0 \
    PORT=3000 \
    CACHE_DIRECTORY=/tmp
USER gateway:gateway
WORKDIR /data
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 CMD ["wa-gateway-healthcheck"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["tini", "--", "wa-gateway"]
CMD ["serve"]
