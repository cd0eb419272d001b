// Module hooks (module.register) that report every resolved module URL to the main thread.
let port
export function initialize(data) {
  port = data.port
}
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context)
  port.postMessage(resolved.url)
  return resolved
}
