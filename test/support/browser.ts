import jsQR from 'jsqr'
import { chromium, type Browser, type Page } from 'playwright-core'
import { PNG } from 'pngjs'
import { findChromium } from './chromium-binary'

/**
 * Headless Chromium (Debian's if installed, else the one from the npm package @sparticuz/chromium;
 * Playwright's own download is not reachable), with what keeps it from reaching for the network
 * on its own. Of @sparticuz/chromium's recommended `args` only the harmless privacy ones are
 * taken: --single-process (a Lambda workaround; here the browser died after its first page) and
 * --disable-web-security, --allow-running-insecure-content and the site-isolation switches
 * (they would hide the very CSP and origin rules the panel tests check) are left out.
 */
export async function launchChromium(): Promise<Browser> {
  const { executablePath, env } = findChromium()
  return chromium.launch({
    executablePath,
    env: { ...process.env, ...env },
    args: [
      '--no-sandbox', // tests run as root in containers, where the sandbox cannot start
      '--disable-gpu',
      '--disable-software-rasterizer', // no GPU process falling back to SwiftShader (the npm build then logs Vulkan errors)
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-domain-reliability',
      '--no-pings',
    ],
  })
}

/** Reads the QR the panel shows (`#qr`) from the image's own pixels, as a phone camera would. */
export async function qrShownBy(page: Page): Promise<string> {
  const src = await page.locator('#qr').getAttribute('src')
  if (!src?.startsWith('data:image/png;base64,'))
    throw new Error(`the QR image is no PNG data URL: ${src?.slice(0, 40)}`)
  const image = PNG.sync.read(Buffer.from(src.slice(src.indexOf(',') + 1), 'base64'))
  const decoded = jsQR(new Uint8ClampedArray(image.data), image.width, image.height)
  if (!decoded) throw new Error('no QR code in the image the page shows')
  return decoded.data
}
