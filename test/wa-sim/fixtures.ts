// Small real media files a contact can send by name (made once with ffmpeg, kept in fixtures/):
// what a test or a control-API caller uses when the bytes themselves do not matter.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const FIXTURES = {
  jpeg: { file: 'image.jpg', mimetype: 'image/jpeg', width: 32, height: 24 },
  png: { file: 'image.png', mimetype: 'image/png', width: 32, height: 24 },
  webp: { file: 'sticker.webp', mimetype: 'image/webp', width: 64, height: 64 },
  mp4: { file: 'video.mp4', mimetype: 'video/mp4', width: 32, height: 24, seconds: 1 },
  opus: { file: 'voice.ogg', mimetype: 'audio/ogg; codecs=opus', seconds: 1 },
  mp3: { file: 'audio.mp3', mimetype: 'audio/mpeg', seconds: 1 },
  pdf: { file: 'document.pdf', mimetype: 'application/pdf' },
} as const

export type FixtureName = keyof typeof FIXTURES

export const isFixtureName = (name: string): name is FixtureName => Object.hasOwn(FIXTURES, name)

const directory = join(fileURLToPath(new URL('.', import.meta.url)), 'fixtures')

/** The fixture's bytes (a fresh copy each call) and what a phone would say about it. */
export const fixture = (name: FixtureName) => ({
  ...FIXTURES[name],
  bytes: readFileSync(join(directory, FIXTURES[name].file)),
})
