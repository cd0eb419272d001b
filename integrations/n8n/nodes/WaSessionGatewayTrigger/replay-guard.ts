import type { IDataObject } from 'n8n-workflow'

/** How many delivery ids a trigger remembers: the gateway retries an event for a day, in order per webhook, so recent ids are the ones a retry repeats. */
export const REMEMBERED_IDS = 1000

const seenOf = (data: IDataObject): string[] => (Array.isArray(data.seenIds) ? (data.seenIds as string[]) : [])

/** Whether a delivery with this webhook-id already started the workflow (an at-least-once retry). */
export const alreadySeen = (data: IDataObject, id: string) => seenOf(data).includes(id)

/** Remembers a delivery's id in the node's static data, which n8n keeps with the workflow; the oldest go first. */
export function remember(data: IDataObject, id: string): void {
  const seen = seenOf(data).filter((known) => known !== id)
  seen.push(id)
  data.seenIds = seen.slice(-REMEMBERED_IDS)
}
