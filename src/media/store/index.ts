import { dirname, join } from 'node:path'
import type { GatewayConfig } from '../../config'
import { createLocalMediaStore } from './local'
import { createS3MediaStore } from './s3'
import type { MediaStore } from './types'

export { type ByteRange, type MediaStore, MediaStoreError } from './types'
export { mediaKey } from './key'

/**
 * The store the operator chose (MEDIA_STORE): a bucket, or a directory, by default `media`
 * beside the database file. An in-memory database without MEDIA_STORE_DIR has none.
 */
export function createMediaStore(
  config: Pick<GatewayConfig, 'inboundMedia'>,
  databaseFile: string,
): MediaStore | undefined {
  const store = config.inboundMedia.store
  if (store.kind === 's3') return createS3MediaStore(store)
  if (store.dir) return createLocalMediaStore(store.dir)
  return databaseFile ? createLocalMediaStore(join(dirname(databaseFile), 'media')) : undefined
}
