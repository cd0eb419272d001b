/** s3rver ships no types: the part the tests use. */
declare module 's3rver' {
  export default class S3rver {
    constructor(options: {
      address?: string
      port?: number
      silent?: boolean
      directory?: string
      configureBuckets?: { name: string; configs: (string | Buffer)[] }[]
    })
    /** Koa's middleware chain (S3rver is a Koa app). */
    middleware: ((
      ctx: { method: string; path: string; headers: Record<string, string | string[] | undefined> },
      next: () => Promise<void>,
    ) => unknown)[]
    /** Where the objects are kept: one folder per key prefix. */
    store: {
      getResourcePath(bucket: string, key: string, resource: string): string
      deleteObject(bucket: string, key: string): Promise<void>
    }
    run(): Promise<{ address: string; port: number }>
    close(): Promise<void>
  }
}
