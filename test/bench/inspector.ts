/**
 * A bench's view into a child Node process started with `--inspect=127.0.0.1:<port>`: force a
 * full garbage collection and read what stays (RSS alone mostly says when V8 last collected),
 * count the live handles, and write a heap snapshot, over the DevTools protocol.
 */
import { createWriteStream } from 'node:fs'
import { once } from 'node:events'
import WebSocket from 'ws'

type ProtocolEvent = { method: string; params: Record<string, unknown> }

export interface Inspector {
  call<T = unknown>(method: string, params?: Record<string, unknown>): Promise<T>
  /** Calls `listener` with every protocol event until the returned function is called. */
  onEvent(listener: (event: ProtocolEvent) => void): () => void
  close(): void
}

export async function connectInspector(port: number): Promise<Inspector> {
  const [target] = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as {
    webSocketDebuggerUrl: string
  }[]
  if (!target) throw new Error(`no inspector target on port ${port}`)
  const socket = new WebSocket(target.webSocketDebuggerUrl, { maxPayload: 1 << 30 })
  await once(socket, 'open')
  let nextId = 1
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>()
  const listeners = new Set<(event: ProtocolEvent) => void>()
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as {
      id?: number
      result?: unknown
      error?: { message: string }
      method?: string
      params?: Record<string, unknown>
    }
    if (message.id === undefined) {
      for (const listener of listeners) listener(message as ProtocolEvent)
      return
    }
    const waiting = pending.get(message.id)
    pending.delete(message.id)
    if (message.error) waiting?.reject(new Error(message.error.message))
    else waiting?.resolve(message.result)
  })
  return {
    call: <T>(method: string, params: Record<string, unknown> = {}) =>
      new Promise<T>((resolve, reject) => {
        const id = nextId++
        pending.set(id, { resolve: resolve as (value: unknown) => void, reject })
        socket.send(JSON.stringify({ id, method, params }))
      }),
    onEvent(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    close: () => socket.close(),
  }
}

/** Heap in use right after a forced full collection, in MB. */
export async function heapAfterGcMb(inspector: Inspector): Promise<number> {
  await inspector.call('HeapProfiler.collectGarbage')
  const { usedSize } = await inspector.call<{ usedSize: number }>('Runtime.getHeapUsage')
  return usedSize / 1024 ** 2
}

/** Where the process's memory is, in MB (`process.memoryUsage()`): RSS minus the V8 heap and `external` is native memory (malloc, code). */
export async function memoryUsageMb(
  inspector: Inspector,
): Promise<{ rss: number; heapTotal: number; heapUsed: number; external: number; arrayBuffers: number }> {
  const { result } = await inspector.call<{ result: { value: Record<string, number> } }>('Runtime.evaluate', {
    expression:
      'Object.fromEntries(Object.entries(process.memoryUsage()).map(([k, v]) => [k, Math.round((v / 1048576) * 10) / 10]))',
    returnByValue: true,
  })
  return result.value as never
}

/** The process's live async resources by type (TCPWrap, Timeout, …), from `process.getActiveResourcesInfo()`. */
export async function activeResources(inspector: Inspector): Promise<Record<string, number>> {
  const { result } = await inspector.call<{ result: { value: Record<string, number> } }>('Runtime.evaluate', {
    expression:
      'process.getActiveResourcesInfo().reduce((counts, type) => ((counts[type] = (counts[type] ?? 0) + 1), counts), {})',
    returnByValue: true,
  })
  return result.value
}

/** Writes a heap snapshot of the process to `path` (a .heapsnapshot file DevTools opens). */
export async function writeHeapSnapshot(inspector: Inspector, path: string): Promise<void> {
  const out = createWriteStream(path)
  const stopListening = inspector.onEvent((event) => {
    if (event.method === 'HeapProfiler.addHeapSnapshotChunk') out.write(event.params.chunk as string)
  })
  try {
    await inspector.call('HeapProfiler.takeHeapSnapshot', { reportProgress: false })
  } finally {
    stopListening()
    out.end()
    await once(out, 'finish')
  }
}
