import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

/*
 * The dependency rules of docs/architecture.md ("Layers"), read off the import statements of src/:
 * a rule the code breaks fails here, naming the file and what it imports.
 */
const SRC = resolve(__dirname, '../src')

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith('.ts') ? [path] : []
  })
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^'"]*?\bfrom\s+['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g

/** Each file of src/ (relative to src/, with '/') and what it imports: a path relative to src/, or the package. */
const imports = sourceFiles(SRC).map((file) => {
  const text = readFileSync(file, 'utf8')
  const targets = [...text.matchAll(IMPORT)].map(([, from, dynamic]) => {
    const spec = (from ?? dynamic) as string
    return spec.startsWith('.')
      ? relative(SRC, resolve(dirname(file), spec))
          .split('\\')
          .join('/')
      : spec
  })
  return { file: relative(SRC, file).split('\\').join('/'), targets }
})

function breaches(inFiles: (file: string) => boolean, forbidden: (target: string) => boolean): string[] {
  return imports
    .filter(({ file }) => inFiles(file))
    .flatMap(({ file, targets }) => targets.filter(forbidden).map((target) => `${file} → ${target}`))
}

const under =
  (...folders: string[]) =>
  (path: string) =>
    folders.some((folder) => path.startsWith(`${folder}/`))

describe('layers', () => {
  it('reads the imports it checks', () => {
    expect(imports.length).toBeGreaterThan(100)
    expect(breaches(under('engine'), (target) => target === '@whiskeysockets/baileys').length).toBeGreaterThan(0)
  })

  it('keeps the engine below services, HTTP and the schemas', () => {
    expect(breaches(under('engine'), under('services', 'http', 'schemas'))).toEqual([])
  })

  it('keeps the database out of the engine: its credentials and keys come through the AuthStore port', () => {
    expect(breaches(under('engine'), (target) => under('db')(target) || target.startsWith('drizzle-orm'))).toEqual([])
  })

  it('reaches Baileys internals through one file', () => {
    const deep = (target: string) => target.startsWith('@whiskeysockets/baileys/')
    expect(breaches((file) => file !== 'engine/whatsapp/baileys-internals.ts', deep)).toEqual([])
  })
  it('keeps the engine port and the ground floor free of Baileys and zod', () => {
    const port = under('engine/whatsapp/port')
    const shared = under('shared')
    const outside =
      (...allowed: ((path: string) => boolean)[]) =>
      (target: string) =>
        !allowed.some((ok) => ok(target))
    expect(breaches(port, outside(port, shared))).toEqual([])
    expect(breaches(shared, outside(shared))).toEqual([])
  })

  it('lets services, HTTP, the database and the schemas see the engine only through its port', () => {
    const engineBeyondPort = (target: string) =>
      target.startsWith('engine/whatsapp/') && !target.startsWith('engine/whatsapp/port')
    expect(breaches(under('services', 'http', 'db', 'schemas'), engineBeyondPort)).toEqual([])
  })
  it('keeps the database below the schemas and the engine, and the schemas below media and services', () => {
    expect(breaches(under('db'), under('engine', 'schemas', 'services', 'http'))).toEqual([])
    expect(breaches(under('schemas'), under('media', 'services', 'http'))).toEqual([])
  })

  it('keeps services below HTTP (what only HTTP holds, such as the event streams, lives in http/)', () => {
    expect(breaches(under('services'), under('http'))).toEqual([])
  })

  it('runs no import circle through the services’ context (it names types of files that do not import it back)', () => {
    const targetsOf = new Map(imports.map(({ file, targets }) => [file.replace(/\.ts$/, ''), targets]))
    const resolved = (target: string) => (targetsOf.has(target) ? target : `${target}/index`)
    const reached = new Set<string>()
    const walk = (file: string, path: string[]): string[] | undefined => {
      for (const target of (targetsOf.get(file) ?? []).map(resolved)) {
        if (target === 'services/context') return [...path, target]
        if (reached.has(target) || !targetsOf.has(target)) continue
        reached.add(target)
        const circle = walk(target, [...path, target])
        if (circle) return circle
      }
      return undefined
    }
    expect(walk('services/context', ['services/context'])).toBeUndefined()
  })

  it('keeps media below services and HTTP (services name media through media/port.ts)', () => {
    expect(breaches(under('media'), under('services', 'http'))).toEqual([])
  })
})
