/** A drizzle-kit migration as listed in drizzle/meta/_journal.json, with its SQL text. */
export interface EmbeddedMigration {
  tag: string
  when: number
  breakpoints: boolean
  sql: string
}

interface Journal {
  entries: { tag: string; when: number; breakpoints: boolean }[]
}

type ReadText = (path: string, encoding: 'utf8') => string

export function readMigrationFolder(folder: string, read: ReadText): EmbeddedMigration[] {
  const journal = JSON.parse(read(`${folder}/meta/_journal.json`, 'utf8')) as Journal
  return journal.entries.map(({ tag, when, breakpoints }) => ({
    tag,
    when,
    breakpoints,
    sql: read(`${folder}/${tag}.sql`, 'utf8'),
  }))
}
