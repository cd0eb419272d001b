import { beforeAll, describe, expect, it } from 'vitest'
import type { MediaConverter } from '../../../src/media/converter'
import { createFfmpegConverter } from '../../../src/media/ffmpeg'
import { expectGatewayError } from '../../support/expect-error'
import { fixtures } from '../../support/media-fixtures'

let converter: MediaConverter
beforeAll(() => {
  converter = createFfmpegConverter({ timeoutMs: 20_000 })
})

/** Channel count from the OpusHead packet in an OGG file's first page (RFC 7845). */
function opusChannels(ogg: Uint8Array): number | undefined {
  const text = new TextDecoder('latin1').decode(ogg.subarray(0, 200))
  const at = text.indexOf('OpusHead')
  return at < 0 ? undefined : ogg[at + 9]
}

describe('voice notes', () => {
  it.each([
    ['mp3', fixtures.mp3],
    ['ogg/vorbis', fixtures.oggVorbis],
    ['ogg/opus (stereo)', fixtures.oggOpus],
  ])('turns %s into mono OGG/Opus with its duration and a rising waveform', async (_kind, make) => {
    const note = await converter.toVoiceNote(await make(3))
    expect(note.mimetype).toBe('audio/ogg; codecs=opus')
    expect(new TextDecoder().decode(note.bytes.subarray(0, 4))).toBe('OggS')
    expect(opusChannels(note.bytes)).toBe(1)
    expect(note.seconds).toBeGreaterThan(2.9)
    expect(note.seconds).toBeLessThan(3.15)
    const waveform = note.waveform!
    expect(waveform).toHaveLength(64)
    expect(Math.max(...waveform)).toBe(100)
    expect(waveform[2]!).toBeLessThan(15) // the tone starts near silence…
    expect(waveform[62]!).toBeGreaterThan(85) // …and ends at full loudness
    const reprobed = await converter.probeAudio(note.bytes)
    expect(reprobed.mimetype).toMatch(/^audio\/(ogg; codecs=)?opus$/)
    expect(Math.abs(reprobed.seconds - note.seconds)).toBeLessThan(0.1)
  })

  it('probes audio sent as a file: real mimetype from the bytes, duration from decoding', async () => {
    const info = await converter.probeAudio(await fixtures.mp3(4))
    expect(info.mimetype).toBe('audio/mpeg')
    expect(info.seconds).toBeGreaterThan(3.9)
    expect(info.seconds).toBeLessThan(4.15)
  })

  it('refuses what is not audio, and audio it cannot decode, with 422 media_unavailable', async () => {
    const png = await fixtures.png()
    expect((await expectGatewayError(converter.toVoiceNote(png), 'media_unavailable')).message).toMatch(
      /image\/png; send mp3, ogg\/vorbis or opus/,
    )
    const mp3 = await fixtures.mp3(1)
    const truncated = Uint8Array.from([...mp3.subarray(0, 40), ...new Uint8Array(400).fill(0x55)])
    await expectGatewayError(converter.toVoiceNote(truncated), 'media_unavailable')
    await expectGatewayError(converter.probeAudio(new TextEncoder().encode('just text')), 'media_unavailable')
  })
})
