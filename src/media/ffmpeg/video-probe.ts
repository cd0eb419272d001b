/** A video's first video stream (and first audio stream) as ffmpeg's header dump describes them. */
export interface DeclaredVideo {
  codec: string
  pixelFormat?: string
  /** As displayed: a stream rotated by 90° or 270° has its sides swapped. */
  width: number
  height: number
  audioCodec?: string
  /** From the container's `Duration:`; absent when it declares none (N/A). */
  seconds?: number
}

/**
 * Pure: ffmpeg's description of its input (before `Stream mapping:`) → what it declares, e.g.
 * `Stream #0:0(und): Video: h264 (High) (avc1 / 0x31637661), yuv420p, 320x240 [SAR 1:1 DAR 4:3]`.
 */
export function declaredVideo(stderr: string): DeclaredVideo | undefined {
  const end = stderr.indexOf('Stream mapping:')
  const input = end >= 0 ? stderr.slice(0, end) : stderr
  const video = /Stream #0:\d+[^:\n]*: Video: ([a-z0-9_]+)([^\n]*)/.exec(input)
  if (!video) return undefined
  const details = video[2] ?? ''
  const size = /, (\d{1,6})x(\d{1,6})/.exec(details)
  if (!size) return undefined
  // `vp8, yuv420p(progressive), …` or `h264 (High) (avc1 / …), yuv420p, …`
  const pixelFormat = /^, ([a-z0-9_]+)[,(]/.exec(details)?.[1] ?? /\), ([a-z0-9_]+)[,(]/.exec(details)?.[1]
  const audio = /Stream #0:\d+[^:\n]*: Audio: ([a-z0-9_]+)/.exec(input)
  const duration = /Duration: (\d+):(\d{2}):(\d{2}(?:\.\d+)?)/.exec(input)
  // The rotation of the first video stream's side data or metadata (phones record sideways).
  const afterVideo = input.slice(video.index)
  const rotation = /rotate\s*:\s*(-?\d+)|rotation of (-?\d+(?:\.\d+)?) degrees/.exec(afterVideo)
  const degrees = Math.abs(Math.round(Number(rotation?.[1] ?? rotation?.[2] ?? 0))) % 180
  const [width, height] = degrees === 90 ? [Number(size[2]), Number(size[1])] : [Number(size[1]), Number(size[2])]
  return {
    codec: video[1]!,
    ...(pixelFormat ? { pixelFormat } : {}),
    width,
    height,
    ...(audio ? { audioCodec: audio[1]! } : {}),
    ...(duration ? { seconds: Number(duration[1]) * 3600 + Number(duration[2]) * 60 + Number(duration[3]) } : {}),
  }
}
