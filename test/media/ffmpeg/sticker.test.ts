import { beforeAll, describe, expect, it } from 'vitest'
import { ANIMATED_STICKER_MAX_BYTES, STATIC_STICKER_MAX_BYTES, type MediaConverter } from '../../../src/media/converter'
import { createFfmpegConverter } from '../../../src/media/ffmpeg'
import { readWebpInfo } from '../../../src/media/webp-header'
import { expectGatewayError } from '../../support/expect-error'
import { cornerPixel, fixtures } from '../../support/media-fixtures'

let converter: MediaConverter
beforeAll(() => {
  converter = createFfmpegConverter({ timeoutMs: 20_000 })
})

describe('stickers', () => {
  it('keeps an animated GIF animated, 512×512, every frame, under the animated limit', async () => {
    const sticker = await converter.toSticker(await fixtures.animatedGif())
    expect(sticker).toMatchObject({ mimetype: 'image/webp', animated: true })
    const info = readWebpInfo(sticker.bytes)
    expect(info).toMatchObject({ width: 512, height: 512, animated: true })
    expect(info!.frames).toBeGreaterThanOrEqual(15) // 2 s at 10 fps: frames must not be dropped
    expect(sticker.bytes.byteLength).toBeLessThanOrEqual(ANIMATED_STICKER_MAX_BYTES)
  })

  it.each([
    ['png 320×240', fixtures.png],
    ['static webp 200×300', fixtures.staticWebp],
  ])('makes a static 512×512 sticker from %s with transparent padding', async (_kind, make) => {
    const sticker = await converter.toSticker(await make())
    expect(sticker).toMatchObject({ mimetype: 'image/webp', animated: false })
    expect(readWebpInfo(sticker.bytes)).toMatchObject({ width: 512, height: 512, animated: false })
    expect(sticker.bytes.byteLength).toBeLessThanOrEqual(STATIC_STICKER_MAX_BYTES)
    expect((await cornerPixel(sticker.bytes))[3]).toBe(0) // the padded corner is see-through
  })

  it('sends an animated WebP that already is a sticker as it is, and refuses other animated WebP', async () => {
    const ready = await fixtures.animatedWebp('512x512')
    const sticker = await converter.toSticker(ready)
    expect(sticker.animated).toBe(true)
    expect(sticker.bytes).toEqual(ready)
    const error = await expectGatewayError(
      converter.toSticker(await fixtures.animatedWebp('320x240')),
      'media_unavailable',
    )
    expect(error.message).toMatch(/must already be 512×512/)
  })

  it('refuses undecodable or non-image input with 422 media_unavailable', async () => {
    const gif = await fixtures.animatedGif()
    const broken = Uint8Array.from([...gif.subarray(0, 16), ...new Uint8Array(64).fill(0xff)])
    await expectGatewayError(converter.toSticker(broken), 'media_unavailable')
    const error = await expectGatewayError(converter.toSticker(await fixtures.mp3(1)), 'media_unavailable')
    expect(error.message).toMatch(/WebP, GIF, PNG or JPEG/)
  })
})
