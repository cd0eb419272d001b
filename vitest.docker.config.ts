import { defineConfig } from 'vitest/config'

/**
 * `npm run test:docker` (a CI step of its own, after `npm test`): the Docker image built with
 * buildah and run with podman (test/docker/). Apart from `npm test`, whose projects leave
 * test/docker out: it needs root, Debian's buildah, podman and mmdebstrap, and minutes.
 */
export default defineConfig({
  test: {
    include: ['test/docker/**/*.test.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
})
