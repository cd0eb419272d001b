import { describe, expect, it } from 'vitest'
import { contentDisposition, parseRange, safeContentType } from '../../src/http/media-response'

describe('parseRange', () => {
  it('reads one bytes= range, clamped to the file', () => {
    expect(parseRange('bytes=0-99', 1000)).toEqual({ start: 0, end: 99 })
    expect(parseRange('bytes=900-', 1000)).toEqual({ start: 900, end: 999 })
    expect(parseRange('bytes=-10', 1000)).toEqual({ start: 990, end: 999 })
    expect(parseRange('bytes=-5000', 1000)).toEqual({ start: 0, end: 999 })
    expect(parseRange('bytes=990-5000', 1000)).toEqual({ start: 990, end: 999 })
  })

  it('ignores what it cannot honour (the whole file is sent) and refuses what starts past the end', () => {
    for (const header of [undefined, '', 'bytes=', 'bytes=-', 'items=0-1', 'bytes=0-1,5-6', 'bytes=5-2', 'bytes=a-b'])
      expect(parseRange(header, 1000), String(header)).toBeUndefined()
    expect(parseRange(`bytes=${'9'.repeat(200)}-`, 1000)).toBeUndefined()
    expect(parseRange('bytes=1000-', 1000)).toBe('unsatisfiable')
    expect(parseRange('bytes=-0', 1000)).toBe('unsatisfiable')
    expect(parseRange('bytes=0-', 0)).toBe('unsatisfiable')
  })
})

describe('safeContentType', () => {
  it('keeps a real media type, parameters too; anything else is octet-stream', () => {
    expect(safeContentType('image/jpeg')).toBe('image/jpeg')
    expect(safeContentType('audio/ogg; codecs=opus')).toBe('audio/ogg; codecs=opus')
    expect(safeContentType('text/plain; charset="utf-8"')).toBe('text/plain; charset="utf-8"')
    for (const bad of ['', 'jpeg', 'image/jpeg\r\nSet-Cookie: a=b', 'a/b; x', `image/${'x'.repeat(300)}`, 'ímage/png'])
      expect(safeContentType(bad), bad).toBe('application/octet-stream')
  })
})

describe('contentDisposition', () => {
  it('always an attachment, with an ASCII fallback and the UTF-8 name', () => {
    expect(contentDisposition('report.pdf')).toBe(`attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`)
    expect(contentDisposition('Fatura nº 7 (final).pdf')).toBe(
      `attachment; filename="Fatura n_ 7 (final).pdf"; filename*=UTF-8''Fatura%20n%C2%BA%207%20%28final%29.pdf`,
    )
  })

  it('drops paths, quotes, control and bidi characters, lone surrogates; bounds the length', () => {
    expect(contentDisposition('../../etc/passwd')).toBe(`attachment; filename="passwd"; filename*=UTF-8''passwd`)
    expect(contentDisposition('C:\\\\evil\\\\"x".exe')).toBe(`attachment; filename="x.exe"; filename*=UTF-8''x.exe`)
    expect(contentDisposition('a\r\nSet-Cookie: b\u202egnp.exe')).toBe(
      `attachment; filename="aSet-Cookie: bgnp.exe"; filename*=UTF-8''aSet-Cookie%3A%20bgnp.exe`,
    )
    expect(contentDisposition('\ud800x;y%z')).toBe(`attachment; filename="x_y_z"; filename*=UTF-8''x%3By%25z`)
    expect(contentDisposition('')).toBe(`attachment; filename="file"; filename*=UTF-8''file`)
    const long = contentDisposition('😀'.repeat(10_000))
    expect(long.length).toBeLessThan(3_000)
    expect(() => decodeURIComponent(long.split("''")[1]!)).not.toThrow()
  })
})
