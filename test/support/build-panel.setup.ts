/** vitest's global setup: the panel is built from src/panel first, so the tests see it as it is. */
import { buildPanel } from '../../scripts/build-panel'

export default async function setup() {
  await buildPanel()
}
