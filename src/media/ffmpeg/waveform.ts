/** WhatsApp draws a voice note as 64 bars. */
export const WAVEFORM_BARS = 64

/**
 * The loudness envelope of 16-bit mono PCM: mean absolute amplitude per bar, scaled so the
 * loudest bar is 100 (what WhatsApp's own clients send in `waveform`).
 */
export function waveformOf(pcm: Uint8Array): Uint8Array {
  const aligned = pcm.byteOffset % 2 === 0 ? pcm : pcm.slice() // Int16Array needs an even offset
  const samples = new Int16Array(aligned.buffer, aligned.byteOffset, Math.floor(aligned.byteLength / 2))
  const bars = new Float64Array(WAVEFORM_BARS)
  const perBar = samples.length / WAVEFORM_BARS
  for (let bar = 0; bar < WAVEFORM_BARS; bar++) {
    const from = Math.floor(bar * perBar)
    const to = Math.max(from + 1, Math.floor((bar + 1) * perBar))
    let sum = 0
    for (let i = from; i < to && i < samples.length; i++) sum += Math.abs(samples[i]!)
    bars[bar] = sum / (to - from)
  }
  const loudest = Math.max(...bars)
  return Uint8Array.from(bars, (value) => (loudest > 0 ? Math.round((value / loudest) * 100) : 0))
}
