import { describe, expect, it } from 'vitest'
import { firstUrl } from '../../../src/media/link-preview/first-url'
import { readPageMeta } from '../../../src/media/link-preview/page-meta'

const PAGE = 'https://site.test/a/page.html'

describe('readPageMeta', () => {
  it('prefers Open Graph, then the Twitter card, then <title> and the meta description', () => {
    expect(
      readPageMeta(
        `<title>T</title><meta name="description" content="D">
         <meta name="twitter:title" content="TW"><meta property="og:description" content="OGD">`,
        PAGE,
      ),
    ).toEqual({ title: 'TW', description: 'OGD', image: undefined })
    expect(readPageMeta('<TITLE>Only a title</TITLE>', PAGE)).toEqual({ title: 'Only a title' })
  })

  it('reads attributes in any order and quoting, decodes entities, keeps the first of a name', () => {
    const meta = readPageMeta(
      `<meta content='Caf&eacute; &amp; &#233;t&#xE9; &quot;x&quot;' property=og:title>
       <meta property="og:title" content="second">
       <meta property=og:image content=../img/p.png>`,
      PAGE,
    )
    expect(meta).toEqual({ title: 'Caf&eacute; & été "x"', image: 'https://site.test/img/p.png' })
  })

  it('ignores tags inside scripts and comments, and stops at the body', () => {
    const meta = readPageMeta(
      `<script>var s = '<meta property="og:title" content="script">'</script>
       <!-- <meta property="og:title" content="comment"> -->
       <meta property="og:title" content="real"></head><body><meta property="og:description" content="body">`,
      PAGE,
    )
    expect(meta).toEqual({ title: 'real' })
  })

  it('drops a picture that is no http(s) URL, collapses whitespace and cuts a long title', () => {
    const meta = readPageMeta(
      `<meta property="og:image" content="javascript:alert(1)"><title>
        ${'long '.repeat(100)}</title>`,
      PAGE,
    )
    expect(meta.image).toBeUndefined()
    expect([...meta.title!]).toHaveLength(256)
    expect(meta.title!.endsWith('…')).toBe(true)
  })

  it('stays linear on hostile input: an unclosed tag or script of the whole cap', () => {
    const hostile = `<meta content="${'"'.repeat(10)}${'<a '.repeat(80_000)}`
    const started = performance.now()
    readPageMeta(hostile, PAGE)
    readPageMeta(`<script>${'<'.repeat(250_000)}`, PAGE)
    expect(performance.now() - started).toBeLessThan(500)
  })
})

describe('firstUrl', () => {
  it('finds the first http(s) URL, without the sentence punctuation after it', () => {
    expect(firstUrl('see (https://a.test/x?y=1). and http://b.test')).toEqual({
      matchedText: 'https://a.test/x?y=1',
      url: 'https://a.test/x?y=1',
    })
    expect(firstUrl('no link, just a.test or ftp://c.test')).toBeUndefined()
  })

  it('is quick on a long run of dots', () => {
    const started = performance.now()
    expect(firstUrl(`https://a.test/${'.'.repeat(60_000)}x`)?.matchedText.endsWith('x')).toBe(true)
    expect(firstUrl(`https://a.test/${'.'.repeat(60_000)}`)?.matchedText).toBe('https://a.test/')
    expect(performance.now() - started).toBeLessThan(200)
  })
})
