import { describe, expect, it } from 'vitest'
import { mediaDownloadUrl } from '../../../../src/engine/whatsapp/media/media-url'

const PATH = '/v/t62.7119-24/12345_67890_n.enc?ccb=11-4&oh=01_Q5&oe=6700'
const SIM = '127.0.0.1:8443'

const url = (media: { url?: string | null; directPath?: string | null }, hosts: string[] = []) => {
  const verdict = mediaDownloadUrl(media, hosts)
  return verdict.ok ? verdict.url.href : `refused: ${verdict.refused}`
}

describe('mediaDownloadUrl', () => {
  it('takes the direct path on the host of the url, as Baileys does (the url’s own path is not used)', () => {
    expect(url({ url: 'https://mmg.whatsapp.net/o1/v/other?x=1', directPath: PATH })).toBe(
      `https://mmg.whatsapp.net${PATH}`,
    )
    expect(url({ url: 'https://media-fra5-1.cdn.whatsapp.net/v/x', directPath: PATH })).toBe(
      `https://media-fra5-1.cdn.whatsapp.net${PATH}`,
    )
  })

  it('without a url, the direct path is on mmg.whatsapp.net', () => {
    expect(url({ directPath: PATH })).toBe(`https://mmg.whatsapp.net${PATH}`)
    expect(url({ url: '', directPath: PATH })).toBe(`https://mmg.whatsapp.net${PATH}`)
    expect(url({ url: null, directPath: PATH })).toBe(`https://mmg.whatsapp.net${PATH}`)
  })

  it('without a direct path, the url itself, when it is on a WhatsApp media host', () => {
    expect(url({ url: `https://mmg.whatsapp.net${PATH}` })).toBe(`https://mmg.whatsapp.net${PATH}`)
    expect(url({ url: `https://MMG.WhatsApp.NET${PATH}` })).toBe(`https://mmg.whatsapp.net${PATH}`)
    expect(url({ url: `https://mmg.whatsapp.net:443${PATH}` })).toBe(`https://mmg.whatsapp.net${PATH}`)
  })

  it('refuses a message with neither', () => {
    expect(url({})).toMatch(/^refused: there is neither/)
  })

  it('refuses any url that is not https, whether or not there is a direct path', () => {
    for (const scheme of ['http', 'ftp', 'file', 'data', 'ws', 'wss']) {
      expect(url({ url: `${scheme}://mmg.whatsapp.net/x` }), scheme).toMatch(/^refused: the url is not https/)
      expect(url({ url: `${scheme}://mmg.whatsapp.net/x`, directPath: PATH }), scheme).toMatch(/^refused/)
    }
    expect(url({ url: 'not a url', directPath: PATH })).toMatch(/^refused: the url is not a URL/)
  })

  it('refuses hosts that are not WhatsApp’s, or WhatsApp’s on another port', () => {
    for (const host of [
      '127.0.0.1',
      '[::1]',
      'localhost',
      '169.254.169.254',
      'whatsapp.net.evil.example',
      'evilwhatsapp.net',
      'mmg.whatsapp.net.',
      'whatsapp.net',
      'mmg.whatsapp.com',
      'mmg.whatsapp.net:8443',
      'mmg.whatsapp.net:80',
      '2130706433',
    ])
      expect(url({ url: `https://${host}/x`, directPath: PATH }), host).toMatch(
        /^refused: the url is not on a WhatsApp media host/,
      )
  })

  it('refuses user info in the url', () => {
    expect(url({ url: 'https://user:pw@mmg.whatsapp.net/x', directPath: PATH })).toMatch(/user info/)
    expect(url({ url: 'https://127.0.0.1@mmg.whatsapp.net/x' })).toMatch(/user info/)
  })

  it('refuses a direct path that is not a path starting with a single "/"', () => {
    for (const directPath of [
      'v/t62/x',
      '@127.0.0.1:8080/x',
      '.evil.example/x',
      ':8080/x',
      '//127.0.0.1/x',
      '/\\127.0.0.1/x',
      '/x y',
      '/x\ny',
      '/x\u0000',
      '/x\u00e9',
      `/${'a'.repeat(2048)}`,
    ])
      expect(url({ url: 'https://mmg.whatsapp.net/x', directPath }), JSON.stringify(directPath)).toMatch(
        /^refused: the direct path is not a path/,
      )
  })

  it('keeps odd but harmless paths on the host (dot segments, a backslash later on)', () => {
    expect(url({ directPath: '/a/../../b' })).toBe('https://mmg.whatsapp.net/b')
    expect(url({ directPath: '/a\\@127.0.0.1/x' })).toBe('https://mmg.whatsapp.net/a/@127.0.0.1/x')
    expect(url({ directPath: '/a#@127.0.0.1' })).toBe('https://mmg.whatsapp.net/a#@127.0.0.1')
  })

  it('allows the other hosts given, exactly (host and port), and only over https', () => {
    expect(url({ url: `https://${SIM}/x`, directPath: PATH }, [SIM])).toBe(`https://${SIM}${PATH}`)
    expect(url({ url: `https://${SIM}${PATH}` }, [SIM])).toBe(`https://${SIM}${PATH}`)
    expect(url({ url: 'https://127.0.0.1:8444/x', directPath: PATH }, [SIM])).toMatch(/not on a WhatsApp media host/)
    expect(url({ url: 'https://127.0.0.1/x', directPath: PATH }, [SIM])).toMatch(/not on a WhatsApp media host/)
    expect(url({ url: `http://${SIM}/x`, directPath: PATH }, [SIM])).toMatch(/not https/)
    // A media_conn host without a port is on 443, spelt as URLs spell it
    expect(url({ url: 'https://Media.Example:443/x', directPath: PATH }, ['media.example'])).toBe(
      `https://media.example${PATH}`,
    )
  })

  it('ignores given hosts that are not a bare host[:port]', () => {
    for (const junk of ['evil.example/x', 'user@evil.example', 'evil.example?q', '', ' '])
      expect(url({ url: 'https://evil.example/x', directPath: PATH }, [junk]), junk).toMatch(/^refused/)
  })
})
