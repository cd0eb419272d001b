import { beforeAll, describe, expect, it } from 'vitest'
import { checkImage } from '../../src/media/image-check'
import { fixtures, generate, testPicture } from '../support/media-fixtures'

let jpeg: Uint8Array
let png: Uint8Array
let webp: Uint8Array
let lossless: Uint8Array
beforeAll(async () => {
  jpeg = await generate([...testPicture('320x240', 1), '-frames:v', '1'], 'jpg')
  png = await fixtures.png()
  webp = await fixtures.staticWebp()
  lossless = await generate([...testPicture('64x48', 1), '-frames:v', '1', '-c:v', 'libwebp', '-lossless', '1'], 'webp')
})

const cut = (bytes: Uint8Array, length: number) => bytes.subarray(0, length)
const withJunk = (head: number[], junk = 600) =>
  Uint8Array.from([...head, ...Array.from({ length: junk }, (_, i) => (i * 37) % 256)])

describe('checkImage', () => {
  it('passes whole images and reads their size from the frame header', () => {
    expect(checkImage(jpeg, 'image/jpeg')).toEqual({ ok: true, width: 320, height: 240 })
    expect(checkImage(png, 'image/png')).toEqual({ ok: true, width: 320, height: 240 })
    expect(checkImage(webp, 'image/webp')).toEqual({ ok: true, width: 200, height: 300 })
    expect(checkImage(lossless, 'image/webp')).toEqual({ ok: true, width: 64, height: 48 })
  })

  it('refuses a JPEG signature followed by junk', () => {
    expect(checkImage(withJunk([0xff, 0xd8, 0xff]), 'image/jpeg')).toMatchObject({ ok: false })
  })

  it('refuses a file cut short anywhere: 10 bytes, the headers, half the picture, all but the last byte', () => {
    for (const [bytes, type] of [
      [jpeg, 'image/jpeg'],
      [png, 'image/png'],
      [webp, 'image/webp'],
    ] as const) {
      for (const length of [10, 200, Math.floor(bytes.length / 2), bytes.length - 1]) {
        expect(checkImage(cut(bytes, length), type), `${type} cut to ${length}`).toMatchObject({ ok: false })
      }
    }
  })

  it('refuses a WebP whose header invents a size its chunks do not hold', () => {
    const header = Buffer.alloc(30)
    header.write('RIFF', 0)
    header.writeUInt32LE(22 + 600, 4)
    header.write('WEBPVP8X', 8)
    header.writeUInt32LE(10, 16)
    header.writeUIntLE(8828, 24, 3) // width 8829
    header.writeUIntLE(11462, 27, 3) // height 11463
    const fake = withJunk([...header], 600)
    const result = checkImage(fake, 'image/webp')
    expect(result).toMatchObject({ ok: false })
  })

  it('refuses a size over 16384 per side even when the structure holds', () => {
    const huge = Uint8Array.from(png)
    new DataView(huge.buffer).setUint32(16, 60_000) // IHDR width
    expect(checkImage(huge, 'image/png')).toEqual({ ok: false, reason: 'it declares 60000×240, over 16384 per side' })
  })
})
