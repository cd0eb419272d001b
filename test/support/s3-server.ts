import { readFileSync, readdirSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import S3rver from 's3rver'
import { tempDir } from './temp-dir'

export interface S3Request {
  method: string
  path: string
  headers: Record<string, string | string[] | undefined>
}

export interface S3Server {
  /** http://127.0.0.1:<port> */
  endpoint: string
  bucket: string
  accessKeyId: string
  secretAccessKey: string
  /** Every request so far, as it arrived (before s3rver read its body). */
  requests: S3Request[]
  /** The object keys the bucket holds now (read from s3rver's directory). */
  keys(): string[]
  /** The bytes of the object named `key`, as s3rver keeps them on disk. */
  object(key: string): Buffer
  close(): Promise<void>
}

/**
 * A local S3-compatible server (s3rver) on loopback with one bucket, checking request
 * signatures as S3 does: the S3 media store is tested against it.
 */
export async function startS3Server(bucket = 'wa-media'): Promise<S3Server> {
  const dir = tempDir()
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: dir.path,
    configureBuckets: [{ name: bucket, configs: [] }],
  })
  // s3rver's DELETE also removes the folders the key leaves empty; a PUT of the same key still
  // opening its file then dies in s3rver with an unhandled ENOENT (the store deletes a broken
  // upload's temporary object without waiting for the bucket). S3 has no folders: keep them.
  server.store.deleteObject = async (name, key) => {
    const files = ['object', 'object.md5', 'metadata.json'].map((part) => server.store.getResourcePath(name, key, part))
    await Promise.all(files.map((file) => rm(file, { force: true })))
  }
  const requests: S3Request[] = []
  // Requests s3rver is still handling: its folder goes only after them (a broken upload's
  // handler can outlive the client's request and open its file after the test ended).
  const underWay = new Set<Promise<unknown>>()
  server.middleware.unshift((ctx, next) => {
    requests.push({ method: ctx.method, path: ctx.path, headers: { ...ctx.headers } })
    const handled = Promise.resolve(next()).finally(() => underWay.delete(handled))
    underWay.add(handled)
    return handled
  })
  const { port } = (await server.run()) as { port: number }
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    // s3rver's own credentials: it verifies signatures made with them
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    requests,
    keys: () =>
      (readdirSync(`${dir.path}/${bucket}`, { recursive: true }) as string[])
        .map((path) => path.replaceAll('\\', '/'))
        .filter((path) => path.endsWith('._S3rver_object'))
        .map((path) => path.replace(/\._S3rver_object$/, '')),
    object: (key) => readFileSync(`${dir.path}/${bucket}/${key}._S3rver_object`),
    async close() {
      // An upload whose body never ends would keep its handler forever: wait a bounded time
      const settled = Promise.allSettled([...underWay])
      await Promise.race([settled, new Promise((resolve) => setTimeout(resolve, 2_000))])
      await server.close()
      dir.cleanup()
    },
  }
}
