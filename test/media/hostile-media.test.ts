import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loopbackOnlyNetwork, type NetworkGuard } from '../support/loopback-only-network'
import { startMediaServer, type MediaServer } from '../support/media-server'
import { startSimulatedGateway, type SimulatedGateway } from '../support/simulated-gateway'
import { generate } from './fixtures'

/** A WAV header declaring 1 sample a second: 200 KB of samples decode to 28 hours. */
function wavAt1Hz(dataBytes = 200_000): Uint8Array {
  const header = Buffer.alloc(44)
  header.write('RIFF', 0)
  header.writeUInt32LE(36 + dataBytes, 4)
  header.write('WAVEfmt ', 8)
  header.writeUInt32LE(16, 16) // fmt chunk size
  header.writeUInt16LE(1, 20) // PCM
  header.writeUInt16LE(1, 22) // mono
  header.writeUInt32LE(1, 24) // sample rate: 1 Hz
  header.writeUInt32LE(2, 28) // byte rate
  header.writeUInt16LE(2, 32) // block align
  header.writeUInt16LE(16, 34) // bits per sample
  header.write('data', 36)
  header.writeUInt32LE(dataBytes, 40)
  return new Uint8Array(Buffer.concat([header, Buffer.alloc(dataBytes, 0x10)]))
}

/** A 35-byte GIF whose screen and only frame claim 60000×60000 pixels (14 GB as RGBA). */
function gifClaiming(side: number): Uint8Array {
  const size = Buffer.alloc(4)
  size.writeUInt16LE(side, 0)
  size.writeUInt16LE(side, 2)
  return new Uint8Array(
    Buffer.concat([
      Buffer.from('GIF89a'),
      size,
      Buffer.from([0xf0, 0, 0, 0, 0, 0, 255, 255, 255, 0x2c, 0, 0, 0, 0]),
      size,
      Buffer.from([0x00, 0x02, 0x02, 0x4c, 0x01, 0x00, 0x3b]),
    ]),
  )
}

const rss = () => process.memoryUsage().rss

describe('media that decodes to far more than it weighs', () => {
  let t: SimulatedGateway
  let files: MediaServer
  let network: NetworkGuard
  let sessionId: string

  beforeAll(async () => {
    network = loopbackOnlyNetwork()
    files = await startMediaServer()
    // 50 minutes of silence in 270 KB, and 20 minutes of it as a small mp3: both past MEDIA_MAX_SECONDS.
    files.serve('silence.ogg', await generate(['-f', 'lavfi', '-i', 'anullsrc=r=8000:cl=mono', '-t', '3000', '-c:a', 'libvorbis', '-q:a', '0'], 'ogg'))
    files.serve('silence.mp3', await generate(['-f', 'lavfi', '-i', 'anullsrc=r=8000:cl=mono', '-t', '1200', '-c:a', 'libmp3lame', '-b:a', '8k'], 'mp3'))
    files.serve('1hz.wav', wavAt1Hz())
    files.serve('huge.gif', gifClaiming(60_000))
    files.serve('big.gif', gifClaiming(16_000))
    t = await startSimulatedGateway({ plan: 'paid', config: { allowPrivateAddresses: true } })
    sessionId = await t.pairByQr('hostile', '15550016001')
  }, 120_000)
  afterAll(async () => {
    await t.close()
    await files.close()
    network.restore()
  })

  it('refuses each with 422 naming why, while the gateway’s memory stays within +100 MB', async () => {
    const sends = [
      ...['silence.ogg', 'silence.ogg', 'silence.mp3', '1hz.wav'].map((file) => ({
        path: '/v1/message/audio',
        body: { sessionId, phone: '15551230001', audioUrl: files.url(file), ptt: true },
      })),
      { path: '/v1/message/audio', body: { sessionId, phone: '15551230001', audioUrl: files.url('silence.ogg'), ptt: false } },
      ...['huge.gif', 'big.gif'].map((file) => ({ path: '/v1/message/sticker', body: { sessionId, phone: '15551230001', stickerUrl: files.url(file) } })),
    ]
    const before = rss()
    let peak = before
    const sampler = setInterval(() => (peak = Math.max(peak, rss())), 10)
    const answers = await Promise.all(sends.map(({ path, body }) => t.post(path, body)))
    clearInterval(sampler)
    peak = Math.max(peak, rss())

    const reasons = answers.map((a) => [a.status, a.body.error, a.body.details?.reason])
    expect(reasons).toEqual([
      [422, 'media_unavailable', expect.stringMatching(/longer than 900 s/)],
      [422, 'media_unavailable', expect.stringMatching(/longer than 900 s/)],
      [422, 'media_unavailable', expect.stringMatching(/longer than 900 s/)],
      [422, 'media_unavailable', expect.stringMatching(/audio\/(wav|x-wav|vnd\.wave); send mp3, ogg\/vorbis or opus/)],
      [422, 'media_unavailable', expect.stringMatching(/longer than 900 s/)],
      [422, 'media_unavailable', expect.stringMatching(/60000×60000; a sticker is made from at most 4096×4096/)],
      [422, 'media_unavailable', expect.stringMatching(/16000×16000/)],
    ])
    const grewMb = (peak - before) / 1024 / 1024
    console.log(`RSS ${Math.round(before / 1048576)} MB before, peak +${grewMb.toFixed(1)} MB over ${sends.length} hostile sends`)
    expect(grewMb).toBeLessThan(100)
    expect((await t.get(`/v1/message/all?sessionId=${sessionId}`)).body.messages).toEqual([])
  }, 120_000)
})
