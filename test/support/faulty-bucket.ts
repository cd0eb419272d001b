import http from 'node:http'
import { startLoopbackServer } from './loopback-server'

/**
 * How the bucket misbehaves: `none` passes every request to the real one; `silent` accepts the
 * connection and never reads or answers; `stall-body` answers a GET's headers and half its body,
 * then nothing; `down` drops the connection without an answer (a bucket gone).
 */
export type BucketFault = 'none' | 'silent' | 'stall-body' | 'down'

export interface FaultyBucket {
  /** http://127.0.0.1:<port>: give it to the gateway as MEDIA_S3_ENDPOINT. */
  endpoint: string
  fault: BucketFault
  /** Every request that reached it (`METHOD /path`), whatever the fault. */
  requests: string[]
  close(): Promise<void>
}

/**
 * A loopback S3 endpoint in front of a real one (s3rver, which checks the signatures: the
 * requests go through unchanged, Host included), that can be told to misbehave as a bucket does.
 */
export async function startFaultyBucket(target: string): Promise<FaultyBucket> {
  const bucket = { fault: 'none' as BucketFault, requests: [] as string[] }
  const server = await startLoopbackServer((request, response) => {
    bucket.requests.push(`${request.method} ${request.url}`)
    if (bucket.fault === 'down') return request.socket.destroy()
    if (bucket.fault === 'silent') return request.pause() // never read, never answer
    const upstream = http.request(`${target}${request.url}`, { method: request.method, headers: request.headers })
    upstream.on('response', (answer) => {
      response.writeHead(answer.statusCode!, answer.headers)
      if (bucket.fault === 'stall-body' && request.method === 'GET' && answer.statusCode! < 300) {
        answer.once('data', (chunk: Buffer) => response.write(chunk.subarray(0, Math.ceil(chunk.length / 2))))
        return // the rest never comes
      }
      answer.pipe(response)
    })
    upstream.on('error', () => response.destroy())
    request.pipe(upstream)
  })
  return Object.assign(bucket, { endpoint: server.url('').replace(/\/$/, ''), close: () => server.close() })
}
