/** WhatsApp draws a voice note as 64 bars. */
export const WAVEFORM_BARS = 64

/** Blocks the meter keeps at most: past it neighbours merge, so memory stays flat for any duration. */
const MAX_BLOCKS = 4_096

/**
 * The loudness envelope of 16-bit little-endian mono PCM, taken as it streams: each block of
 * samples is reduced to its mean absolute amplitude at once, so the meter holds at most
 * MAX_BLOCKS numbers (blocks start at 10 ms and double in length whenever that many are full),
 * never the PCM itself. `bars()` spreads the blocks over 64 bars scaled so the loudest is 100,
 * what WhatsApp's own clients send in `waveform`.
 */
export class EnvelopeMeter {
  samples = 0
  #blocks: number[] = []
  #blockSamples: number
  #sum = 0
  #inBlock = 0
  /** A byte left over when a chunk ends between the two bytes of a sample. */
  #carry: number | undefined

  constructor(readonly rate: number) {
    this.#blockSamples = Math.max(1, Math.round(rate / 100))
  }

  add(chunk: Uint8Array): void {
    let at = 0
    if (this.#carry !== undefined && chunk.length > 0) {
      this.#sample(int16(this.#carry, chunk[0]!))
      this.#carry = undefined
      at = 1
    }
    for (; at + 1 < chunk.length; at += 2) this.#sample(int16(chunk[at]!, chunk[at + 1]!))
    if (at < chunk.length) this.#carry = chunk[at]
  }

  seconds(): number {
    return this.samples / this.rate
  }

  bars(): Uint8Array {
    const blocks = this.#inBlock > 0 ? [...this.#blocks, this.#sum / this.#inBlock] : this.#blocks
    const bars = new Float64Array(WAVEFORM_BARS)
    const perBar = blocks.length / WAVEFORM_BARS
    for (let bar = 0; bar < WAVEFORM_BARS; bar++) {
      const from = Math.floor(bar * perBar)
      const to = Math.max(from + 1, Math.floor((bar + 1) * perBar))
      let sum = 0
      let count = 0
      for (let i = from; i < to && i < blocks.length; i++, count++) sum += blocks[i]!
      bars[bar] = count > 0 ? sum / count : 0
    }
    const loudest = Math.max(...bars)
    return Uint8Array.from(bars, (value) => (loudest > 0 ? Math.round((value / loudest) * 100) : 0))
  }

  #sample(value: number): void {
    this.samples++
    this.#sum += Math.abs(value)
    if (++this.#inBlock < this.#blockSamples) return
    this.#blocks.push(this.#sum / this.#blockSamples)
    this.#sum = 0
    this.#inBlock = 0
    if (this.#blocks.length === MAX_BLOCKS) {
      this.#blocks = Array.from(
        { length: MAX_BLOCKS / 2 },
        (_, i) => (this.#blocks[2 * i]! + this.#blocks[2 * i + 1]!) / 2,
      )
      this.#blockSamples *= 2
    }
  }
}

function int16(low: number, high: number): number {
  const value = low | (high << 8)
  return value >= 0x8000 ? value - 0x10000 : value
}
