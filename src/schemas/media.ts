import { z } from 'zod'

/** A file's bytes in an OpenAPI answer. */
export const FileBody = z.string().meta({ format: 'binary' })

export const MediaTokenParams = z.object({
  token: z.string().min(1).max(1024).meta({ description: 'The signed token of a message.received downloadUrl.' }),
})

const fileHeaders = z.object({
  ETag: z.string().meta({ description: 'The file’s SHA-256 (hex), quoted: send it back in If-None-Match for a 304.' }),
  'Content-Disposition': z.string().meta({ description: '`attachment` with the sender’s file name (or one made up).' }),
  'Accept-Ranges': z.literal('bytes'),
})

/**
 * A file is served with the media type its sender declared (image/jpeg, application/pdf,
 * audio/ogg; codecs=opus, ...), which can be any: the document says so with the `*\/*` range.
 */
const fileContent = { '*/*': { schema: FileBody } }

/** The answers every file download gives. */
export const fileResponses = {
  200: {
    description: 'The file: decrypted, MAC- and SHA-256-checked, with its Content-Type as the sender declared it.',
    headers: fileHeaders,
    content: fileContent,
  },
  206: {
    description: 'A Range of the file (one range; Content-Range says which).',
    headers: fileHeaders,
    content: fileContent,
  },
  304: { description: 'If-None-Match named the file’s ETag: unchanged.' },
} as const
