/**
 * A pairing QR payload drawn as an image, so a client shows it without a QR library of its own.
 * Error correction M and the standard 4-module quiet zone are what phone cameras read best;
 * 8 px per module gives a ~500 px square for WhatsApp's ~240-character payloads. The encoder is
 * loaded on first use, like Baileys and ffmpeg, so it costs nothing at start.
 */
const options = { errorCorrectionLevel: 'M', margin: 4, scale: 8 } as const

const encoder = async () => (await import('qrcode')).default

export const qrPngDataUrl = async (payload: string): Promise<string> =>
  (await encoder()).toDataURL(payload, { ...options, type: 'image/png' })

export const qrPng = async (payload: string): Promise<Uint8Array<ArrayBuffer>> =>
  new Uint8Array(await (await encoder()).toBuffer(payload, { ...options, type: 'png' }))

export const qrSvg = async (payload: string): Promise<string> => (await encoder()).toString(payload, { ...options, type: 'svg' })
