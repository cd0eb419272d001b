/**
 * The panel's one way to the gateway: the documented /v1 routes (the panel has no private API),
 * with the key the user signed in with, kept in this tab only (sessionStorage). Every failure
 * becomes an ApiError with the gateway's own message; a request that reaches nothing marks the
 * gateway unreachable (the banner) until /health answers again.
 */
import { setReachable } from './reachability'

const KEY = 'wa-gateway.key'
/** The operator's ADMIN_API_KEY, kept apart: with it the panel shows only the Admin screen. */
const ADMIN_KEY = 'wa-gateway.admin-key'
const DEPLOYMENT_KEY = 'wa-gateway.deployment-key'

/** Where the gateway is mounted: the panel lives at <base>/panel, the API at <base>/v1. */
export const base = location.pathname.replace(/\/panel\/?$/, '')

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string | null,
  ) {
    super(message)
  }
}

export const credentials = {
  key: () => sessionStorage.getItem(KEY),
  adminKey: () => sessionStorage.getItem(ADMIN_KEY),
  deploymentKey: () => sessionStorage.getItem(DEPLOYMENT_KEY),
  /** One role at a time: a workspace's key or the admin key, never both. */
  save(key: string, deploymentKey: string, role: 'workspace' | 'admin' = 'workspace') {
    sessionStorage.removeItem(role === 'admin' ? KEY : ADMIN_KEY)
    sessionStorage.setItem(role === 'admin' ? ADMIN_KEY : KEY, key)
    if (deploymentKey) sessionStorage.setItem(DEPLOYMENT_KEY, deploymentKey)
    else sessionStorage.removeItem(DEPLOYMENT_KEY)
  },
  clear() {
    sessionStorage.removeItem(KEY)
    sessionStorage.removeItem(ADMIN_KEY)
    sessionStorage.removeItem(DEPLOYMENT_KEY)
  },
}

export function authHeaders(): Record<string, string> {
  const bearer = credentials.key() ?? credentials.adminKey() ?? ''
  const headers: Record<string, string> = { authorization: `Bearer ${bearer}` }
  const deploymentKey = credentials.deploymentKey()
  if (deploymentKey) headers['x-api-key'] = deploymentKey
  return headers
}

/** Listeners told when the gateway refuses the key (401): the app signs out. */
const unauthorized = new Set<() => void>()
export const onUnauthorized = (listener: () => void) => {
  unauthorized.add(listener)
  return () => unauthorized.delete(listener)
}

export async function api<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  const headers = authHeaders()
  if (body !== undefined) headers['content-type'] = 'application/json'
  let response: Response
  try {
    response = await fetch(base + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  } catch (error) {
    setReachable(false)
    throw new ApiError(String((error as Error).message ?? error), 0, 'unreachable')
  }
  setReachable(true)
  const json = (response.headers.get('content-type') ?? '').includes('json')
  const data = json ? await response.json() : null
  if (!response.ok) {
    if (response.status === 401) for (const listener of unauthorized) listener()
    throw new ApiError(data?.message ?? response.statusText, response.status, data?.error ?? null)
  }
  return data as T
}

export const path = (strings: TemplateStringsArray, ...values: (string | number)[]) =>
  strings.reduce((out, part, i) => out + part + (i < values.length ? encodeURIComponent(String(values[i])) : ''), '')
