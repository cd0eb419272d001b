/**
 * A pairing QR payload drawn as an image, so a client shows it without a QR library of its own.
 * The matrix comes from `qrcode` (its `create`, the same in its Node and browser builds: a Worker
 * bundle gets the browser one, whose own PNG path needs a canvas); the PNG is written by
 * fast-png (pure JavaScript, runs everywhere) and the SVG from the matrix directly. Error
 * correction M and the standard 4-module quiet zone are what phone cameras read best; 8 px per
 * module gives a ~500 px square for WhatsApp's ~240-character payloads. Both libraries load on
 * first use, like Baileys and ffmpeg, so they cost nothing at start.
 */
const MARGIN = 4
const SCALE = 8

async function matrix(payload: string): Promise<{ size: number; dark: (x: number, y: number) => boolean }> {
  const { default: QRCode } = await import('qrcode')
  const { modules } = QRCode.create(payload, { errorCorrectionLevel: 'M' })
  return { size: modules.size, dark: (x, y) => modules.get(y, x) === 1 }
}

export async function qrPng(payload: string): Promise<Uint8Array<ArrayBuffer>> {
  const [{ size, dark }, { encode }] = await Promise.all([matrix(payload), import('fast-png')])
  const side = (size + 2 * MARGIN) * SCALE
  const pixels = new Uint8Array(side * side).fill(255)
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      if (!dark(x, y)) continue
      for (let row = 0; row < SCALE; row++) {
        const start = ((y + MARGIN) * SCALE + row) * side + (x + MARGIN) * SCALE
        pixels.fill(0, start, start + SCALE)
      }
    }
  }
  return new Uint8Array(encode({ width: side, height: side, data: pixels, channels: 1, depth: 8 }))
}

export async function qrPngDataUrl(payload: string): Promise<string> {
  const png = await qrPng(payload)
  let binary = ''
  for (let at = 0; at < png.length; at += 0x8000) binary += String.fromCharCode(...png.subarray(at, at + 0x8000))
  return `data:image/png;base64,${btoa(binary)}`
}

/** One square per dark module, in module units (the viewBox scales it); crisp at any size. */
export async function qrSvg(payload: string): Promise<string> {
  const { size, dark } = await matrix(payload)
  const side = size + 2 * MARGIN
  let path = ''
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) if (dark(x, y)) path += `M${x + MARGIN} ${y + MARGIN}h1v1h-1z`
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${side} ${side}" width="${side * SCALE}" height="${side * SCALE}" shape-rendering="crispEdges">` +
    `<rect width="${side}" height="${side}" fill="#fff"/><path fill="#000" d="${path}"/></svg>`
  )
}
