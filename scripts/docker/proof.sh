#!/usr/bin/env bash
# The Docker image proven on a machine with no Docker engine (test/docker/image.test.ts runs it;
# docs/docker.md "How it is tested"). Debian's buildah builds the project's Dockerfile with chroot
# isolation on vfs storage; the base images its FROM lines name are made here first, under those
# same names, from Debian's packages (mmdebstrap) and, for Node, the npm registry:
#
#   scripts/docker/proof.sh bases amd64|arm64   docker.io/library/debian:bookworm-slim (that CPU's)
#                                               and docker.io/library/node:20-bookworm-slim (amd64)
#   scripts/docker/proof.sh build amd64|arm64   the Dockerfile → localhost/wa-session-gateway:proof-<arch>
#   scripts/docker/proof.sh podman ARGS…        podman on the same storage (the test runs the image with it)
#
# Everything lives under $WA_DOCKER_ROOT (default /var/tmp/wa-gateway-docker-proof): base images
# made once are reused by later runs (delete the folder, or `bases` with FRESH=1, to remake them).
# Needs root, buildah, podman, mmdebstrap, and for arm64 a binfmt_misc entry for qemu-aarch64 with
# the F flag (qemu-user-static's: .ci/run registers it).
set -euo pipefail
cd "$(dirname "$0")/../.."

ROOT=${WA_DOCKER_ROOT:-/var/tmp/wa-gateway-docker-proof}
# Node of the stand-in node:20-bookworm-slim: the official image's pieces from the npm registry
# (node-linux-<cpu> holds bin/node and the headers; npm is its own package, the version Node bundles).
NODE_VERSION=20.20.2
NPM_VERSION=10.8.2
DEBIAN_IMAGE=docker.io/library/debian:bookworm-slim
NODE_IMAGE=docker.io/library/node:20-bookworm-slim
IMAGE=localhost/wa-session-gateway

storage=(--root "$ROOT/storage" --runroot "$ROOT/run" --storage-driver vfs)
bh() { buildah "${storage[@]}" "$@"; }
have_image() { bh images --quiet "$1" >/dev/null 2>&1; }
log() { printf '[docker-proof %(%T)T] %s\n' -1 "$*" >&2; }

# debian:bookworm-slim as Debian's own images are made: minbase, merged /usr, no docs, man pages
# or locales, empty apt lists; bookworm with its updates and security suites.
debian_rootfs() {
  local arch=$1 out=$2
  mmdebstrap --quiet --variant=minbase --architectures="$arch" \
    --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/info/*' \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
    --dpkgopt='path-exclude=/usr/share/locale/*' \
    --customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*.bin "$1"/var/log/*.log' \
    bookworm "$out" \
    'deb http://deb.debian.org/debian bookworm main' \
    'deb http://deb.debian.org/debian bookworm-updates main' \
    'deb http://deb.debian.org/debian-security bookworm-security main'
}

debian_image() {
  local arch=$1 tag="$DEBIAN_IMAGE-$1"
  if have_image "$tag" && [ -z "${FRESH:-}" ]; then log "$tag: made before"; return; fi
  log "$tag: mmdebstrap"
  local work; work=$(mktemp -d "$ROOT/tmp.XXXXXX")
  debian_rootfs "$arch" "$work/rootfs.tar"
  local c; c=$(bh from --arch "$arch" scratch)
  bh add "$c" "$work/rootfs.tar" /
  bh config --arch "$arch" --os linux --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    --cmd bash "$c"
  bh commit --quiet --rm "$c" "$tag" >/dev/null
  rm -rf "$work"
}

# node:20-bookworm-slim as the official one is laid out: node and its headers under /usr/local,
# npm in /usr/local/lib/node_modules, a `node` user with uid 1000.
node_image() {
  local arch=amd64 cpu=x64
  if have_image "$NODE_IMAGE" && [ -z "${FRESH:-}" ]; then log "$NODE_IMAGE: made before"; return; fi
  log "$NODE_IMAGE: node-linux-$cpu@$NODE_VERSION and npm@$NPM_VERSION from the npm registry"
  local work; work=$(mktemp -d "$ROOT/tmp.XXXXXX")
  (cd "$work" && npm pack --silent "node-linux-$cpu@$NODE_VERSION" "npm@$NPM_VERSION" >/dev/null)
  mkdir -p "$work/usr/local/lib/node_modules/npm" "$work/usr/local/bin" "$work/usr/local/include"
  tar -xzf "$work"/node-linux-*.tgz -C "$work"
  mv "$work/package/bin/node" "$work/usr/local/bin/node"
  mv "$work/package/include/node" "$work/usr/local/include/node"
  rm -rf "$work/package"
  tar -xzf "$work"/npm-*.tgz -C "$work/usr/local/lib/node_modules/npm" --strip-components=1
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$work/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$work/usr/local/bin/npx"
  local c; c=$(bh from --pull=never "$DEBIAN_IMAGE-$arch")
  bh copy "$c" "$work/usr" /usr
  bh run --isolation chroot "$c" -- sh -c 'groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node && node --version && npm --version' >&2
  bh config --env NODE_VERSION="$NODE_VERSION" --cmd node "$c"
  bh commit --quiet --rm "$c" "$NODE_IMAGE" >/dev/null
  rm -rf "$work"
}

bases() {
  local arch=$1
  mkdir -p "$ROOT"
  debian_image amd64
  [ "$arch" = amd64 ] || debian_image "$arch"
  node_image
  # The name the Dockerfile's last stage uses, for the CPU about to be built.
  bh tag "$DEBIAN_IMAGE-$arch" "$DEBIAN_IMAGE"
}

# The workplace's npm settings for the build's RUN steps, as a build secret would bring them: the
# same registry and CA bundle as this machine's npm (nothing of it lands in the image), and this
# machine's npm cache (a cache: it only saves downloads).
npm_mounts() {
  local cafile cache
  cafile=$(npm config get cafile)
  cache=$(npm config get cache)
  local rc="$ROOT/npmrc"
  {
    echo "registry=$(npm config get registry)"
    [ "$cafile" != null ] && [ "$cafile" != undefined ] && echo "cafile=/run/wa-proof/ca.crt"
  } >"$rc"
  echo -v "$rc:/root/.npmrc:ro" -v "$cache:/root/.npm"
  if [ "$cafile" != null ] && [ "$cafile" != undefined ]; then echo -v "$cafile:/run/wa-proof/ca.crt:ro"; fi
}

build() {
  local arch=$1
  bases "$arch"
  log "build linux/$arch → $IMAGE:proof-$arch"
  local started=$SECONDS
  # Docker's image format: OCI's has no HEALTHCHECK. BUILDPLATFORM, which Docker sets by itself,
  # is this buildah's (1.28) to be told: without it `FROM --platform=$BUILDPLATFORM` asks for the
  # target's CPU.
  # shellcheck disable=SC2046
  bh bud --isolation chroot --pull=never --layers=false --platform "linux/$arch" --format docker \
    --build-arg BUILDPLATFORM="linux/$(dpkg --print-architecture)" \
    $(npm_mounts) -f Dockerfile -t "$IMAGE:proof-$arch" . >&2
  log "built linux/$arch in $((SECONDS - started)) s"
  # The image this tag named before, now untagged: vfs keeps whole copies, so do not keep it.
  bh rmi --prune >/dev/null 2>&1 || true
}

# podman on the same storage, set up for this machine: its default ulimits are above this
# machine's hard limits (which root cannot raise here), and crun refuses the hybrid cgroup
# layout that runc takes.
podman_conf() {
  local conf="$ROOT/containers.conf" nofile
  nofile=$(ulimit -Hn)
  mkdir -p "$ROOT"
  cat >"$conf" <<CONF
[containers]
default_ulimits = ["nofile=$nofile:$nofile", "nproc=4096:4096"]
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
CONF
  echo "$conf"
}

case "${1:-}" in
  bases) bases "${2:?arch}" ;;
  debian) mkdir -p "$ROOT"; debian_image "${2:?arch}" ;;
  build) build "${2:?arch}" ;;
  podman) shift; CONTAINERS_CONF=$(podman_conf) exec podman "${storage[@]}" "$@" ;;
  buildah) shift; bh "$@" ;;
  *) echo "usage: $0 bases|build amd64|arm64, or $0 podman|buildah ARGS…" >&2; exit 64 ;;
esac
