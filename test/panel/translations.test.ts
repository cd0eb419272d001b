import { readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const PANEL = fileURLToPath(new URL('../../src/panel', import.meta.url))
const LANGUAGES = ['en', 'pt-BR', 'es'] as const

/** Every screen's texts.ts (and *-texts.ts) under src/panel (a new screen's file is found without a list to update). */
const textFiles = (readdirSync(PANEL, { recursive: true }) as string[])
  .filter((file) => file.endsWith('texts.ts'))
  .map((file) => join(PANEL, file))

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort()

describe("the panel's translations", () => {
  it('finds the texts of every screen', () => {
    expect(textFiles.length).toBeGreaterThanOrEqual(5)
  })

  for (const file of textFiles) {
    it(`${relative(PANEL, file)}: every language has every English text, non-empty, with the same placeholders`, async () => {
      const module = (await import(file)) as Record<string, unknown>
      // Every export declared with defineTexts (an object with the three languages).
      const declared = Object.entries(module).filter(
        ([, value]) => typeof value === 'object' && value !== null && 'en' in value,
      ) as [string, Record<(typeof LANGUAGES)[number], Record<string, string>>][]
      expect(declared.length).toBeGreaterThan(0)
      for (const [name, texts] of declared) {
        expect(Object.keys(texts).sort(), name).toEqual([...LANGUAGES].sort())
        const english = texts.en
        for (const language of LANGUAGES) {
          const translated = texts[language]
          expect(Object.keys(translated).sort(), `${name}.${language}`).toEqual(Object.keys(english).sort())
          for (const [key, text] of Object.entries(english)) {
            expect(translated[key]?.trim(), `${name}.${language}.${key}`).toBeTruthy()
            expect(placeholders(translated[key] ?? ''), `${name}.${language}.${key}`).toEqual(placeholders(text))
          }
        }
      }
    })
  }
})
