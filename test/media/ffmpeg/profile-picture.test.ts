import { imageSize } from 'image-size'
import { describe, expect, it } from 'vitest'
import { resolveConfig } from '../../../src/config'
import { checkImage } from '../../../src/media/image-check'
import { createMediaTools } from '../../../src/media/media-tools'
import { expectGatewayError } from '../../support/expect-error'
import { fixtures, generate, testPicture } from '../../support/media-fixtures'

const tools = createMediaTools(resolveConfig())
const jpeg = (size: string) => generate([...testPicture(size, 1), '-frames:v', '1'], 'jpg')

/** A PNG whose header (IHDR) claims side×side pixels around a real 16×16 picture's data. */
async function pngClaiming(side: number): Promise<Uint8Array> {
  const png = Buffer.from(await generate([...testPicture('16x16', 1), '-frames:v', '1'], 'png'))
  png.writeUInt32BE(side, 16)
  png.writeUInt32BE(side, 20)
  return new Uint8Array(png)
}

/** Profile photos: what WhatsApp keeps is a square JPEG of 192–640 px; anything else whole is made one. */
describe('profile photos', () => {
  it('sends a square JPEG of 192–640 px as it is', async () => {
    for (const size of ['640x640', '192x192', '500x500']) {
      const photo = await jpeg(size)
      const made = await tools.profilePicture(photo)
      expect(made.converted, size).toBe(false)
      expect(made.bytes).toBe(photo)
      expect(made.side).toBe(Number(size.split('x')[0]))
    }
  })

  it.each([
    ['a wide JPEG', () => jpeg('1280x720')],
    ['a tall PNG', () => generate([...testPicture('300x500', 1), '-frames:v', '1'], 'png')],
    ['a small square JPEG', () => jpeg('100x100')],
    ['a large square JPEG', () => jpeg('1000x1000')],
    ['a WebP', fixtures.staticWebp],
  ])('makes %s a whole 640×640 JPEG', async (_kind, make) => {
    const made = await tools.profilePicture(await make())
    expect(made).toMatchObject({ converted: true, side: 640 })
    expect(checkImage(made.bytes, 'image/jpeg')).toEqual({ ok: true, width: 640, height: 640 })
    expect(imageSize(made.bytes).type).toBe('jpg')
  })

  it('refuses what is no photo, a broken one, and a header claiming more than 4096 px, before decoding', async () => {
    const notImage = await expectGatewayError(tools.profilePicture(await fixtures.mp3(1)), 'media_unavailable')
    expect(notImage.message).toMatch(/pictureUrl is not a JPEG, PNG or WebP/)
    const photo = await jpeg('640x640')
    const cut = await expectGatewayError(tools.profilePicture(photo.subarray(0, 2000)), 'media_unavailable')
    expect(cut.message).toMatch(/not a whole image\/jpeg/)
    const bomb = await expectGatewayError(tools.profilePicture(await pngClaiming(10_000)), 'media_unavailable')
    expect(bomb.message).toMatch(/10000×10000; a profile photo is made from at most 4096×4096/)
    const huge = await expectGatewayError(tools.profilePicture(await pngClaiming(60_000)), 'media_unavailable')
    expect(huge.details).toMatchObject({ field: 'pictureUrl' })
  })

  it('converts a real 4000×4000 picture (the largest side it takes is 4096)', async () => {
    const big = await generate(['-f', 'lavfi', '-i', 'color=c=blue:s=4000x4000', '-frames:v', '1'], 'png')
    expect(await tools.profilePicture(big)).toMatchObject({ converted: true, side: 640 })
  })
})
