import { existsSync } from 'node:fs'
import jsQR from 'jsqr'
import { chromium, type Browser, type Page } from 'playwright-core'
import { PNG } from 'pngjs'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/**
 * Debian's headless Chromium (`.ci/run` installs it; Playwright's own download is not reachable),
 * with what keeps it from reaching for the network on its own.
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: .ci/run installs the Debian package`)
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
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
