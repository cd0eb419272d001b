import { describe, expect, it } from 'vitest'
import { declaredAudio } from '../../../src/media/ffmpeg/audio'
import { EnvelopeMeter, WAVEFORM_BARS } from '../../../src/media/ffmpeg/waveform'

/** 16-bit little-endian PCM of a signal whose loudness rises linearly over `samples`. */
function rising(samples: number): Uint8Array {
  const pcm = Buffer.alloc(samples * 2)
  for (let i = 0; i < samples; i++) pcm.writeInt16LE(Math.round(((i % 2 ? 1 : -1) * 32_000 * i) / samples), i * 2)
  return new Uint8Array(pcm)
}

describe('EnvelopeMeter', () => {
  it('reads the same envelope whatever the chunk boundaries, odd ones included', () => {
    const pcm = rising(24_000)
    const whole = new EnvelopeMeter(8_000)
    whole.add(pcm)
    const split = new EnvelopeMeter(8_000)
    for (let at = 0; at < pcm.length; at += 777) split.add(pcm.subarray(at, at + 777))
    expect(split.samples).toBe(24_000)
    expect(split.seconds()).toBe(3)
    expect([...split.bars()]).toEqual([...whole.bars()])
    const bars = whole.bars()
    expect(bars).toHaveLength(WAVEFORM_BARS)
    expect(bars[0]!).toBeLessThan(5)
    expect(bars[WAVEFORM_BARS - 1]).toBe(100)
  })

  it('keeps a bounded number of blocks for hours of audio and still sees its shape', () => {
    const meter = new EnvelopeMeter(100) // 1 block a 0.1 s: 4,096 blocks are filled after 410 s
    const hour = 3_600 * 100
    const loud = Buffer.alloc(2_000)
    for (let i = 0; i < 1_000; i++) loud.writeInt16LE(20_000, i * 2)
    const quiet = Buffer.alloc(2_000)
    for (let i = 0; i < hour / 1_000; i++) meter.add(i < hour / 2_000 ? quiet : loud) // silent first half, loud second
    expect(meter.seconds()).toBe(3_600)
    const bars = meter.bars()
    expect(bars[10]).toBe(0)
    expect(bars[50]).toBe(100)
  })

  it('gives all-zero bars for silence', () => {
    const meter = new EnvelopeMeter(8_000)
    meter.add(new Uint8Array(16_000))
    expect(Math.max(...meter.bars())).toBe(0)
  })
})

describe('declaredAudio', () => {
  it('reads the input’s duration and first audio stream’s rate, not the output’s', () => {
    const stderr = [
      "Input #0, wav, from '/tmp/input':",
      '  Duration: 27:46:40.00, bitrate: 0 kb/s',
      '    Stream #0:0: Audio: pcm_s16le ([1][0][0][0] / 0x0001), 1 Hz, mono, s16, 0 kb/s',
      'Stream mapping:',
      '    Stream #0:0: Audio: pcm_s16le, 48000 Hz, mono, s16, 768 kb/s',
    ].join('\n')
    expect(declaredAudio(stderr)).toEqual({ sampleRate: 1, seconds: 100_000 })
    expect(
      declaredAudio('  Duration: N/A\n    Stream #0:1(und): Audio: opus, 48000 Hz, stereo, fltp\nStream mapping:'),
    ).toEqual({ sampleRate: 48_000 })
    expect(
      declaredAudio('Input #0, png_pipe:\n    Stream #0:0: Video: png, rgb24, 320x240\nStream mapping:'),
    ).toBeUndefined()
  })
})
