/**
 * One request's deadline against a remote store: a watchdog armed only while we wait on the
 * bucket (to connect, to take the next chunk of an upload, to send headers, to send the next
 * chunk of a body) and resting while we wait on anyone else (the WhatsApp download feeding an
 * upload, the client reading a download). Past `ms` armed at once it aborts the fetch, whose
 * streams then error and free whatever waited on them; each wait is also raced against the
 * deadline, so a fetch that missed the abort cannot hold anyone.
 */
export class Watchdog {
  readonly #abort = new AbortController()
  readonly #ms: number
  #timer: ReturnType<typeof setTimeout> | undefined
  #fired = false

  constructor(ms: number) {
    this.#ms = ms
  }

  /** Give it to the fetch. */
  get signal(): AbortSignal {
    return this.#abort.signal
  }

  /** Whether the deadline passed (what an error that follows is about). */
  get fired(): boolean {
    return this.#fired
  }

  /** Waiting on the bucket from now: armed anew for `ms`. */
  wait(): void {
    clearTimeout(this.#timer)
    this.#timer = setTimeout(() => {
      this.#fired = true
      this.#abort.abort()
    }, this.#ms)
  }

  /** Waiting on someone else: the bucket is not late. */
  rest(): void {
    clearTimeout(this.#timer)
    this.#timer = undefined
  }

  /** `work`, or the abort's reason once the deadline passes, whichever comes first. */
  race<T>(work: Promise<T>): Promise<T> {
    const signal = this.#abort.signal
    return new Promise<T>((resolve, reject) => {
      const expired = () => reject(signal.reason)
      if (signal.aborted) expired()
      else signal.addEventListener('abort', expired, { once: true })
      work.then(resolve, reject).finally(() => signal.removeEventListener('abort', expired))
    })
  }
}

/**
 * An upload body that tells the watchdog whose turn it is: armed from a chunk handed over until
 * the fetch asks for the next one (a bucket that stops reading), resting while the source is
 * asked. `sourceError` keeps what broke the source, so the caller reports that rather than the
 * fetch's wrapping of it.
 */
export function watchedUpload(source: ReadableStream<Uint8Array>, dog: Watchdog) {
  const reader = source.getReader()
  const upload = {
    sourceError: undefined as unknown,
    body: new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          dog.rest()
          const read = await reader.read().catch((error: unknown) => {
            upload.sourceError ??= error
            throw error
          })
          dog.wait() // until the bucket asks for more, or answers once the body is all sent
          if (read.done) controller.close()
          else controller.enqueue(read.value)
        },
        cancel: (reason) => reader.cancel(reason),
      },
      // No chunk read ahead: a pull means the fetch took the last one
      { highWaterMark: 0 },
    ),
    /** Ends the source (the deadline passed, whether or not the fetch noticed). */
    stop: () => void reader.cancel().catch(() => {}),
  }
  return upload
}

/**
 * A response body that keeps the watchdog armed while a chunk is awaited from the bucket and
 * resting while our reader holds off; an error past the deadline becomes `onTimeout()`, any
 * other `onFailure(error)`.
 */
export function watchedDownload(
  body: ReadableStream<Uint8Array>,
  dog: Watchdog,
  errors: { onTimeout: () => Error; onFailure: (error: unknown) => Error },
): ReadableStream<Uint8Array> {
  const reader = body.getReader()
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        dog.wait()
        const read = await dog.race(reader.read()).catch((error: unknown) => {
          dog.rest()
          if (!dog.fired) throw errors.onFailure(error)
          void reader.cancel().catch(() => {})
          throw errors.onTimeout()
        })
        dog.rest()
        if (read.done) controller.close()
        else controller.enqueue(read.value)
      },
      cancel(reason) {
        dog.rest()
        return reader.cancel(reason)
      },
    },
    { highWaterMark: 0 },
  )
}
