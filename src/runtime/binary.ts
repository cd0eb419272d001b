/**
 * Entry of the single executable (`npm run build:binary`, Bun's --compile): embeds what the
 * gateway otherwise reads from node_modules at run time, then runs the ordinary CLI.
 * Migrations need nothing here (they are code: src/db/migrations/bundle.ts), and the SQLite
 * driver is bun:sqlite, built into Bun (better-sqlite3 is left out of the bundle).
 */
import swaggerUiBundle from 'swagger-ui-dist/swagger-ui-bundle.js' with { type: 'file' }
import swaggerUiCss from 'swagger-ui-dist/swagger-ui.css' with { type: 'file' }
// The static ffmpeg of the CPU being built for: scripts/build-binary.ts resolves this name per target.
import ffmpeg from 'binary-target:ffmpeg' with { type: 'file' }
import { embedFiles } from './embedded'

embedFiles({ swaggerUi: { 'swagger-ui.css': swaggerUiCss, 'swagger-ui-bundle.js': swaggerUiBundle }, ffmpeg })
// Not awaited: no top-level await, so Bun can compile the bundle to bytecode (faster start).
void import('../cli')
