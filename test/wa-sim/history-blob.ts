// Hand-made history files for adversarial tests: a decompression bomb (a file that inflates to
// `inflatedBytes`: a valid HistorySync whose one bytes field is a long run of zeros, deflated as
// a stream so a gigabyte of zeros never sits in the simulator's memory; deflate packs zeros about
// 1000:1), or `raw` bytes sent as the file's plaintext as they are (not deflated: a corrupt chunk).
import { proto } from '@whiskeysockets/baileys'
import { once } from 'node:events'
import { createDeflate } from 'node:zlib'
import type { Account } from './account'
import { SimulatorError } from './errors'
import { sendHistoryFile, type HistorySyncTypeName } from './history-send'
import type { SimState } from './state'

export interface HistoryBlob {
  syncType: HistorySyncTypeName
  /** The file inflates to exactly this many bytes (1 B – 4 GiB) */
  inflatedBytes?: number
  /** The file's plaintext as given, not deflated */
  raw?: Buffer
  /** Default 100 */
  progress?: number
  /** Default 1 */
  chunkOrder?: number
}

const MAX_INFLATED = 4 * 1024 ** 3
const ZEROS = Buffer.alloc(1024 * 1024)
/** HistorySync field 9 (threadIdUserSecret, bytes): where the run of zeros goes */
const BYTES_FIELD_TAG = (9 << 3) | 2

const varint = (value: number): Buffer => {
  const bytes: number[] = []
  let rest = value
  while (rest >= 0x80) {
    bytes.push((rest % 0x80) | 0x80)
    rest = Math.floor(rest / 0x80)
  }
  bytes.push(rest)
  return Buffer.from(bytes)
}

/** The HistorySync's own fields, then the bytes field's tag and length, so the whole is `total` bytes. */
const bombPrefix = (header: Buffer, total: number): { prefix: Buffer; zeros: number } => {
  for (let lengthBytes = 1; lengthBytes <= 5; lengthBytes++) {
    const zeros = total - header.length - 1 - lengthBytes
    if (zeros >= 0 && varint(zeros).length === lengthBytes)
      return { prefix: Buffer.concat([header, Buffer.from([BYTES_FIELD_TAG]), varint(zeros)]), zeros }
  }
  // too small for a valid prefix: zeros alone
  return { prefix: Buffer.alloc(0), zeros: total }
}

/** Deflates `prefix` + `zeros` zero bytes as a stream: memory stays at the compressed size. */
const deflateZeros = async (prefix: Buffer, zeros: number): Promise<Buffer> => {
  const deflater = createDeflate({ level: 9 })
  const out: Buffer[] = []
  deflater.on('data', (chunk: Buffer) => out.push(chunk))
  const done = once(deflater, 'end')
  if (prefix.length) deflater.write(prefix)
  for (let left = zeros; left > 0; left -= ZEROS.length) {
    if (!deflater.write(left >= ZEROS.length ? ZEROS : ZEROS.subarray(0, left))) await once(deflater, 'drain')
  }
  deflater.end()
  await done
  return Buffer.concat(out)
}

export const checkBlob = (blob: HistoryBlob): void => {
  if (!Object.hasOwn(proto.HistorySync.HistorySyncType, blob.syncType))
    throw new SimulatorError(
      'invalid_request',
      `"syncType" must be one of ${Object.keys(proto.HistorySync.HistorySyncType).join(', ')}`,
    )
  if ((blob.inflatedBytes === undefined) === (blob.raw === undefined))
    throw new SimulatorError('invalid_request', 'give exactly one of "inflatedBytes" and "raw"')
  const { inflatedBytes, progress, chunkOrder } = blob
  if (
    inflatedBytes !== undefined &&
    (!Number.isInteger(inflatedBytes) || inflatedBytes < 1 || inflatedBytes > MAX_INFLATED)
  )
    throw new SimulatorError('invalid_request', `"inflatedBytes" must be a whole number from 1 to ${MAX_INFLATED}`)
  if (progress !== undefined && (!Number.isInteger(progress) || progress < 0 || progress > 100))
    throw new SimulatorError('invalid_request', '"progress" must be a whole number from 0 to 100')
  if (chunkOrder !== undefined && (!Number.isInteger(chunkOrder) || chunkOrder < 1 || chunkOrder > 100_000))
    throw new SimulatorError('invalid_request', '"chunkOrder" must be a whole number from 1 to 100000')
}

/** Sends one hand-made history notification to the account's device; resolves with its id. */
export const sendHistoryBlob = async (state: SimState, account: Account, blob: HistoryBlob): Promise<string> => {
  checkBlob(blob)
  if (!account.linked) throw new SimulatorError('account_unlinked', `${account.phone} has no linked device`, 409)
  const syncType = proto.HistorySync.HistorySyncType[blob.syncType]
  const progress = blob.progress ?? 100
  const chunkOrder = blob.chunkOrder ?? 1
  let file: Buffer
  if (blob.raw) file = blob.raw
  else {
    const header = Buffer.from(proto.HistorySync.encode({ syncType, chunkOrder, progress }).finish())
    const { prefix, zeros } = bombPrefix(header, blob.inflatedBytes!)
    file = await deflateZeros(prefix, zeros)
  }
  return sendHistoryFile(state, account, file, { syncType, chunkOrder, progress, messages: 0 })
}
