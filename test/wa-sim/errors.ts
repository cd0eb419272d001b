// Errors the public API and the control API report to callers (code -> JSON `error`).
export class SimulatorError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status = 400,
  ) {
    super(message)
  }
}
