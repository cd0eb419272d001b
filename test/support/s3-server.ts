import { readdirSync } from 'node:fs'
import S3rver from 's3rver'
import { tempDir } from './temp-dir'

export interface S3Server {
  /** http://127.0.0.1:<port> */
  endpoint: string
  bucket: string
  accessKeyId: string
  secretAccessKey: string
  /** The object keys the bucket holds now (read from s3rver's directory). */
  keys(): string[]
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
  const { port } = (await server.run()) as { port: number }
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    // s3rver's own credentials: it verifies signatures made with them
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    keys: () =>
      (readdirSync(`${dir.path}/${bucket}`, { recursive: true }) as string[])
        .map((path) => path.replaceAll('\\', '/'))
        .filter((path) => path.endsWith('._S3rver_object'))
        .map((path) => path.replace(/\._S3rver_object$/, '')),
    async close() {
      await server.close()
      dir.cleanup()
    },
  }
}
