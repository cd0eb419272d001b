import type http from 'node:http'

/**
 * Reads a request body as Rails would hand it to a controller: JSON parsed, multipart/form-data
 * parsed by the Web platform's own parser (Request#formData), with the raw size bounded so the
 * worst client cannot hold the test process's memory.
 */

/** Above Chatwoot's own 40 MB attachment limit, far below what would strain the test process. */
export const MAX_BODY_BYTES = 50 * 1024 * 1024

export interface UploadedFile {
  field: string
  fileName: string
  mimeType: string
  bytes: Uint8Array
}

export interface ParsedBody {
  /** The media type without parameters; '' when the request has no body. */
  mediaType: string
  /** JSON as parsed; multipart text fields as strings and file fields as their names (what the contract validates). */
  forContract: unknown
  /** What the request log keeps: files as { fileName, mimeType, size }. */
  forLog: unknown
  /** Rails-style params: a JSON object's keys, multipart fields (`name[]` collected as arrays, files included). */
  params: Record<string, unknown>
  files: UploadedFile[]
  malformed?: string
  tooLarge?: boolean
}

export async function readBody(request: http.IncomingMessage, maxBytes = MAX_BODY_BYTES): Promise<ParsedBody> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > maxBytes) {
      request.resume()
      return { mediaType: '', forContract: undefined, forLog: undefined, params: {}, files: [], tooLarge: true }
    }
    chunks.push(chunk)
  }
  const raw = Buffer.concat(chunks)
  const contentType = request.headers['content-type'] ?? ''
  const mediaType = raw.length ? contentType.split(';')[0]!.trim().toLowerCase() : ''
  const empty = { mediaType, forContract: undefined, forLog: undefined, params: {}, files: [] }
  if (!mediaType) return empty
  if (mediaType === 'application/json') {
    try {
      const body = JSON.parse(raw.toString('utf8'))
      const params = typeof body === 'object' && body && !Array.isArray(body) ? body : {}
      return { ...empty, forContract: body, forLog: body, params }
    } catch (error) {
      return { ...empty, forLog: raw.toString('utf8'), malformed: (error as Error).message }
    }
  }
  if (mediaType === 'multipart/form-data') {
    let form: FormData
    try {
      form = await new Request('http://stand-in.test/', {
        method: 'POST',
        headers: { 'content-type': contentType },
        body: raw,
      }).formData()
    } catch (error) {
      return { ...empty, malformed: (error as Error).message }
    }
    const forContract: Record<string, unknown> = {}
    const forLog: Record<string, unknown> = {}
    const params: Record<string, unknown> = {}
    const files: UploadedFile[] = []
    for (const [field, value] of form.entries()) {
      const many = field.endsWith('[]')
      const key = many ? field.slice(0, -2) : field
      let entry: unknown = value
      if (typeof value !== 'string') {
        const file: UploadedFile = {
          field,
          fileName: value.name,
          mimeType: value.type || 'application/octet-stream',
          bytes: new Uint8Array(await value.arrayBuffer()),
        }
        files.push(file)
        entry = file
      }
      const contractValue = typeof value === 'string' ? value : value.name
      const logValue =
        typeof value === 'string' ? value : { fileName: value.name, mimeType: value.type, size: value.size }
      if (many) {
        append(forContract, field, contractValue)
        append(forLog, field, logValue)
        append(params, key, entry)
      } else {
        forContract[field] = contractValue
        forLog[field] = logValue
        params[key] = entry
      }
    }
    return { mediaType, forContract, forLog, params, files }
  }
  return { ...empty, forLog: raw.toString('utf8') }
}

function append(target: Record<string, unknown>, key: string, value: unknown): void {
  const list = Array.isArray(target[key]) ? (target[key] as unknown[]) : []
  list.push(value)
  target[key] = list
}
