import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loopbackOnlyNetwork, type NetworkGuard } from '../support/loopback-only-network'
import { startMediaServer, type MediaServer } from '../support/media-server'
import { startSimulatedGateway, type SimulatedGateway } from '../support/simulated-gateway'
import { generate, testPicture } from '../support/media-fixtures'

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

/** A one-frame MJPEG AVI whose frame header (SOF0) claims side×side pixels: 3.6 GB as RGB for 30000. */
async function aviFrameClaiming(side: number): Promise<Uint8Array> {
  const avi = Buffer.from(await generate([...testPicture('16x16', 1), '-c:v', 'mjpeg', '-frames:v', '1'], 'avi'))
  const sof = avi.indexOf(Buffer.from([0xff, 0xc0]))
  avi.writeUInt16BE(side, sof + 5)
  avi.writeUInt16BE(side, sof + 7)
  return new Uint8Array(avi)
}

/** 20 minutes of 16×16 frames, one a second: 140 KB, past MEDIA_MAX_SECONDS. */
const twentyMinutes = (container: string[], ext: string) =>
  generate(['-f', 'lavfi', '-i', 'testsrc=size=16x16:rate=1:duration=1200', '-c:v', 'libx264', ...container], ext)

/** An MP4 whose movie, media and track headers say 5 s while its packets cover the whole file. */
function claimingFiveSeconds(mp4: Uint8Array): Uint8Array {
  const bytes = Buffer.from(mp4)
  for (const box of ['mvhd', 'mdhd']) {
    const at = bytes.indexOf(box) // version 0: timescale at +16, duration at +20
    bytes.writeUInt32BE(bytes.readUInt32BE(at + 16) * 5, at + 20)
  }
  bytes.writeUInt32BE(5_000, bytes.indexOf('tkhd') + 24)
  return new Uint8Array(bytes)
}

const rss = () => process.memoryUsage().rss

describe('media that decodes to far more than it weighs', () => {
  let t: SimulatedGateway
  let files: MediaServer
  let network: NetworkGuard
  let sessionId: string
  let liar: net.Server
  let liarUrl: (path: string) => string
  let photo: Uint8Array

  beforeAll(async () => {
    photo = await generate([...testPicture('320x240', 1), '-frames:v', '1'], 'jpg')
    // Raw HTTP, so the framing can lie: Content-Length 10 before a whole photo, or 100,000 before 10 bytes.
    liar = net.createServer((socket) => {
      socket.once('data', (request) => {
        const path = request.toString('latin1').split(' ')[1]
        const [declared, body] = path === '/short-declared' ? [10, photo] : [100_000, photo.subarray(0, 10)]
        socket.end(
          Buffer.concat([
            Buffer.from(`HTTP/1.1 200 OK\r\ncontent-type: image/jpeg\r\ncontent-length: ${declared}\r\n\r\n`),
            body,
          ]),
        )
      })
    })
    await new Promise<void>((resolve) => liar.listen(0, '127.0.0.1', resolve))
    liarUrl = (path) => `http://127.0.0.1:${(liar.address() as net.AddressInfo).port}${path}`
    network = loopbackOnlyNetwork()
    files = await startMediaServer()
    // 50 minutes of silence in 270 KB, and 20 minutes of it as a small mp3: both past MEDIA_MAX_SECONDS.
    files.serve(
      'silence.ogg',
      await generate(
        ['-f', 'lavfi', '-i', 'anullsrc=r=8000:cl=mono', '-t', '3000', '-c:a', 'libvorbis', '-q:a', '0'],
        'ogg',
      ),
    )
    files.serve(
      'silence.mp3',
      await generate(
        ['-f', 'lavfi', '-i', 'anullsrc=r=8000:cl=mono', '-t', '1200', '-c:a', 'libmp3lame', '-b:a', '8k'],
        'mp3',
      ),
    )
    files.serve('1hz.wav', wavAt1Hz())
    files.serve('long.mp4', await twentyMinutes([], 'mp4'))
    // Written as a live stream: the container declares no duration (Duration: N/A), the packets cover 20 minutes.
    files.serve('undeclared.mkv', await twentyMinutes(['-live', '1'], 'mkv'))
    files.serve('bomb.avi', await aviFrameClaiming(30_000))
    // H.264 4:2:0 in MP4 would go as it is: only counting its packets shows the 20 minutes.
    files.serve('understated.mp4', claimingFiveSeconds(await twentyMinutes(['-pix_fmt', 'yuv420p'], 'mp4')))
    files.serve('wide.mp4', await generate([...testPicture('4112x16', 1), '-frames:v', '1', '-c:v', 'libx264'], 'mp4'))
    files.serve('huge.gif', gifClaiming(60_000))
    files.serve('big.gif', gifClaiming(16_000))
    files.serve(
      'junk.jpg',
      Uint8Array.from([0xff, 0xd8, 0xff, ...Array.from({ length: 600 }, (_, i) => (i * 37) % 256)]),
    )
    t = await startSimulatedGateway({ plan: 'paid', config: { allowPrivateAddresses: true } })
    sessionId = await t.pairByQr('hostile', '15550016001')
  }, 120_000)
  afterAll(async () => {
    liar.close()
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
      {
        path: '/v1/message/audio',
        body: { sessionId, phone: '15551230001', audioUrl: files.url('silence.ogg'), ptt: false },
      },
      ...['huge.gif', 'big.gif'].map((file) => ({
        path: '/v1/message/sticker',
        body: { sessionId, phone: '15551230001', stickerUrl: files.url(file) },
      })),
      ...['huge.gif', 'long.mp4', 'undeclared.mkv', 'understated.mp4', 'bomb.avi', 'wide.mp4'].map((file) => ({
        path: '/v1/message/video',
        body: { sessionId, phone: '15551230001', videoUrl: files.url(file) },
      })),
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
      [422, 'media_unavailable', expect.stringMatching(/60000×60000/)],
      [422, 'media_unavailable', expect.stringMatching(/longer than 900 s/)],
      [422, 'media_unavailable', expect.stringMatching(/longer than 900 s/)],
      [422, 'media_unavailable', expect.stringMatching(/longer than 900 s/)],
      [422, 'media_unavailable', expect.stringMatching(/a frame is 30000×30000 pixels/)],
      [422, 'media_unavailable', expect.stringMatching(/it is 4112×16; a video may be at most 4096 pixels a side/)],
    ])
    const grewMb = (peak - before) / 1024 / 1024
    console.log(
      `RSS ${Math.round(before / 1048576)} MB before, peak +${grewMb.toFixed(1)} MB over ${sends.length} hostile sends`,
    )
    expect(grewMb).toBeLessThan(100)
    expect((await t.get(`/v1/message/all?sessionId=${sessionId}`)).body.messages).toEqual([])
  }, 120_000)

  it('refuses images that are not what they claim, and bodies that are not what the server declared', async () => {
    const send = (imageUrl: string) => t.post('/v1/message/image', { sessionId, phone: '15551230001', imageUrl })
    const junk = await send(files.url('junk.jpg'))
    expect(junk.status).toBe(422)
    expect(junk.body).toMatchObject({
      error: 'media_unavailable',
      details: { reason: expect.stringMatching(/header is broken|past the end/) },
    })
    const firstTenBytes = await send(liarUrl('/short-declared'))
    expect(firstTenBytes.status).toBe(422)
    expect(firstTenBytes.body.message).toMatch(/not a whole image\/jpeg image/)
    const cutShort = await send(liarUrl('/long-declared'))
    expect(cutShort.status).toBe(422)
    expect(cutShort.body).toMatchObject({
      error: 'media_unavailable',
      message: expect.stringMatching(/could not be fetched/),
    })
    expect((await t.get(`/v1/message/all?sessionId=${sessionId}`)).body.messages).toEqual([])
  })
})
