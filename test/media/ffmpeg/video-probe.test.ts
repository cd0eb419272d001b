import { describe, expect, it } from 'vitest'
import { declaredVideo } from '../../../src/media/ffmpeg/video-probe'

const dump = (streams: string, duration = '00:00:03.02') =>
  `Input #0, mov,mp4,m4a,3gp,3g2,mj2, from 'input':\n  Duration: ${duration}, start: 0.000000, bitrate: 126 kb/s\n${streams}\nStream mapping:\n  Stream #0:0 -> #0:0 (h264 (native) -> wrapped_avframe (native))\n`

/** Pure mapping of ffmpeg's header dump: what the video path decides on before decoding anything. */
describe('what a video declares', () => {
  it('reads codec, pixel format, size, audio and duration', () => {
    expect(
      declaredVideo(
        dump(
          '    Stream #0:0(und): Video: h264 (High) (avc1 / 0x31637661), yuv420p, 320x240 [SAR 1:1 DAR 4:3], 41 kb/s, 25 fps\n    Stream #0:1(und): Audio: aac (LC) (mp4a / 0x6134706D), 44100 Hz, mono, fltp, 75 kb/s',
        ),
      ),
    ).toEqual({ codec: 'h264', pixelFormat: 'yuv420p', width: 320, height: 240, audioCodec: 'aac', seconds: 3.02 })
  })

  it('reads a pixel format with a scan type, and no duration as none', () => {
    expect(
      declaredVideo(
        dump('    Stream #0:0: Video: vp8, yuv420p(progressive), 640x360, SAR 1:1 DAR 16:9, 30 fps', 'N/A'),
      ),
    ).toEqual({ codec: 'vp8', pixelFormat: 'yuv420p', width: 640, height: 360 })
  })

  it('swaps the sides of a video recorded sideways', () => {
    const rotated = dump(
      '    Stream #0:0(und): Video: h264 (High) (avc1 / 0x31637661), yuv420p, 1920x1080, 25 fps\n    Metadata:\n      rotate          : 90\n    Side data:\n      displaymatrix: rotation of -90.00 degrees',
    )
    expect(declaredVideo(rotated)).toMatchObject({ width: 1080, height: 1920 })
  })

  it('finds no video in an audio file or an empty dump', () => {
    expect(declaredVideo(dump('    Stream #0:0: Audio: mp3, 44100 Hz, stereo, fltp, 128 kb/s'))).toBeUndefined()
    expect(declaredVideo('')).toBeUndefined()
  })
})
