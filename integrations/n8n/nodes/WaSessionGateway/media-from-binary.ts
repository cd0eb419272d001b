import type { IExecuteSingleFunctions, IHttpRequestOptions } from 'n8n-workflow'

/**
 * A preSend that puts the input item's binary data into the body's media field as a base64
 * `data:` URL, which every media field of the gateway takes (docs/media.md), within its
 * BODY_LIMIT_BYTES. A document keeps the file's name unless one is given.
 */
export function mediaFromBinary(field: string) {
  return async function (this: IExecuteSingleFunctions, options: IHttpRequestOptions): Promise<IHttpRequestOptions> {
    const property = this.getNodeParameter('binaryPropertyName') as string
    const binary = this.helpers.assertBinaryData(property)
    const bytes = await this.helpers.getBinaryDataBuffer(property)
    const body = { ...(options.body as Record<string, unknown>) }
    body[field] = `data:${binary.mimeType};base64,${bytes.toString('base64')}`
    if (field === 'documentUrl' && body.fileName === undefined && binary.fileName) body.fileName = binary.fileName
    return { ...options, body }
  }
}
