import { z } from 'zod'
import type { SendPacing } from './db/schema/sessions'
import { proxyAllowEntryProblem } from './net/proxy-address-policy'
import { proxyUrlProblem } from './net/proxy-url'
import type { PlanName } from './plans'

const port = z.coerce.number().int().min(0).max(65_535)
const positiveInt = z.coerce.number().int().positive()
const flag = z.stringbool()

/**
 * Every environment variable the gateway reads, with its default. This schema is the
 * single list; docs/configuration.md documents the same names.
 */
export const envSchema = z.object({
  PORT: port.default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  /**
   * How long an idle keep-alive connection stays open. Above what proxies and client pools keep
   * theirs (nginx, Caddy, a 60 s load balancer), so the gateway never closes a connection under
   * their next request (ECONNRESET, 502). Node's default is 5 s.
   */
  HTTP_KEEP_ALIVE_TIMEOUT_MS: positiveInt.default(65_000),
  DATABASE_PATH: z.string().min(1).default('./data/gateway.db'),
  DEPLOYMENT_API_KEY: z.string().min(16, 'must be at least 16 characters').optional(),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Enables /v1/admin/* (workspaces and API keys over HTTP) for `Authorization: Bearer <it>`. */
  ADMIN_API_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  BODY_LIMIT_BYTES: positiveInt.default(1024 * 1024),
  /** Requests per minute per credential on /v1 (0 turns the limit off). */
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).default(600),
  /** Allow http:// webhook URLs (local development only). */
  WEBHOOK_ALLOW_HTTP: flag.default(false),
  /** Allow webhook and media URLs that resolve to private, loopback or link-local addresses. */
  ALLOW_PRIVATE_ADDRESSES: flag.default(false),
  /** Texts with a URL get a link preview (fetched by the gateway, guarded) unless the request says linkPreview: false. */
  LINK_PREVIEWS: flag.default(true),
  /** The longest a send may take to be handed to WhatsApp (media already fetched); past it, 504 with the record's state. */
  SEND_TIMEOUT_MS: positiveInt.default(30_000),
  /** A message handed to WhatsApp with no server ack after this long is marked failed (no_server_ack). */
  SEND_ACK_TIMEOUT_MS: positiveInt.default(60_000),
  /** How long connect waits for the first QR or pairing code before answering 504. */
  CONNECT_TIMEOUT_MS: positiveInt.default(20_000),
  /** Lifetime of each QR payload Baileys shows; WhatsApp sends a handful of them per pairing. */
  QR_TIMEOUT_MS: positiveInt.optional(),
  /** Timeout of one query to the WhatsApp network (e.g. a contact check). */
  WA_QUERY_TIMEOUT_MS: positiveInt.default(20_000),
  /** Reconnect backoff after a dropped connection: first delay, and the cap it doubles up to. */
  RECONNECT_BASE_MS: positiveInt.default(1_000),
  RECONNECT_MAX_MS: positiveInt.default(60_000),
  FREE_DAILY_CONTACT_CHECKS: z.coerce.number().int().min(0).default(20),
  PAID_DAILY_CONTACT_CHECKS: z.coerce.number().int().min(0).default(5_000),
  /** Sessions a workspace may have pairing or online at once (pending, connecting, connected). */
  FREE_MAX_SESSIONS: positiveInt.default(3),
  PAID_MAX_SESSIONS: positiveInt.default(100),
  FREE_MESSAGE_WEBHOOKS: flag.default(true),
  FREE_INTERACTIVE_MESSAGES: flag.default(false),
  /** The most history messages a session may ask to import (its history.maxMessages); the default it gets is 10,000. */
  HISTORY_MAX_MESSAGES: positiveInt.default(100_000),
  /** A history chunk is read until it inflates past this many bytes (a decompression bomb is cut off there). */
  HISTORY_CHUNK_MAX_BYTES: positiveInt.default(128 * 1024 * 1024),
  /** Largest media file the gateway fetches from a client's URL (WhatsApp's own cap is 16 MiB for most kinds). */
  MEDIA_MAX_BYTES: positiveInt.default(16 * 1024 * 1024),
  /** Longest audio (decoded duration) a conversion accepts; a longer file is refused before it is decoded. */
  MEDIA_MAX_SECONDS: positiveInt.default(15 * 60),
  /** Time limit of one media fetch (redirects and body) and of each conversion step. */
  MEDIA_TIMEOUT_MS: positiveInt.default(30_000),
  /** The ffmpeg executable; default: the build shipped by @ffmpeg-installer, else `ffmpeg` on PATH. */
  FFMPEG_PATH: z.string().min(1).optional(),
  /** Where inbound files are kept once fetched from WhatsApp: a directory, or an S3-compatible bucket. */
  MEDIA_STORE: z.enum(['local', 's3']).default('local'),
  /** local: the directory (default: `media` beside the database). */
  MEDIA_STORE_DIR: z.string().min(1).optional(),
  /** The most the store holds (at least MEDIA_MAX_BYTES); past it the files stored longest ago are dropped (fetched again when asked for). */
  MEDIA_STORE_MAX_BYTES: positiveInt.default(2 * 1024 * 1024 * 1024),
  /** s3 (all four required): the bucket, its endpoint (e.g. R2's or MinIO's) and credentials; objects are named under the prefix. */
  MEDIA_S3_BUCKET: z.string().min(1).optional(),
  MEDIA_S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  MEDIA_S3_REGION: z.string().min(1).default('us-east-1'),
  MEDIA_S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  MEDIA_S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  MEDIA_S3_PREFIX: z.string().max(200).default('media/'),
  /** s3: the longest one request waits on the bucket at a time (to answer, to take or send the next chunk). */
  MEDIA_S3_TIMEOUT_MS: positiveInt.default(15_000),
  /** lazy: an inbound file is fetched on its first download; eager: as it arrives, before its event is delivered. */
  MEDIA_DOWNLOAD: z.enum(['lazy', 'eager']).default('lazy'),
  /** How long a message.received downloadUrl works, in seconds. */
  MEDIA_URL_TTL: positiveInt.default(3600),
  /** How long the phone has to upload an expired file again (media retry) before it is 410 media_expired. */
  MEDIA_RETRY_TIMEOUT_MS: positiveInt.default(20_000),
  /** The gateway's address as its webhook receivers reach it: the base of downloadUrl. Default http://localhost:PORT. */
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** How long message records are kept; 0 keeps them for ever. */
  MESSAGE_RETENTION_DAYS: z.coerce.number().int().min(0).default(30),
  /** One webhook POST: how long the endpoint may take to answer. */
  WEBHOOK_TIMEOUT_MS: positiveInt.default(10_000),
  /** Retry backoff of a failed delivery: first delay, and the cap it doubles up to (with jitter). */
  WEBHOOK_RETRY_BASE_MS: positiveInt.default(5_000),
  WEBHOOK_RETRY_MAX_MS: positiveInt.default(60 * 60 * 1000),
  /** How long a delivery is retried before it is marked failed. */
  WEBHOOK_RETRY_HOURS: z.coerce.number().positive().default(24),
  /** Delivered and failed deliveries (and their events) are pruned after this long. */
  WEBHOOK_RETENTION_HOURS: z.coerce.number().positive().default(72),
  /** Webhook POSTs in flight at once: in total, and to one endpoint (scheme, host and port). */
  WEBHOOK_CONCURRENCY: positiveInt.default(64),
  WEBHOOK_ENDPOINT_CONCURRENCY: positiveInt.default(8),
  /** Sessions reconnecting at once after a start (the rest wait their turn: no thundering herd). */
  RESTORE_CONCURRENCY: positiveInt.default(20),
  /** Control URL of the project's WhatsApp simulator: points Baileys away from WhatsApp. */
  WA_SIMULATOR: z.url().optional(),
  /** Pins the WhatsApp Web version the client announces (e.g. 2.3000.1023456789); unset, the current one is fetched. */
  WA_VERSION: z
    .string()
    .regex(/^2\.\d{1,6}\.\d{1,12}$/, 'must look like 2.3000.1023456789')
    .optional(),
  /** How long the version fetch (web.whatsapp.com) may take before the bundled version is used. */
  WA_VERSION_FETCH_TIMEOUT_MS: positiveInt.default(10_000),
  /**
   * Baileys' keep-alive: a ping every this often on a connected socket, which is closed and
   * reconnected (`unresponsive`) when no frame arrived for this plus 5 s at a tick: a dead
   * socket is caught within 2 × this + 5 s (35 s by default).
   */
  WA_KEEPALIVE_INTERVAL_MS: positiveInt.min(100).default(15_000),
  /**
   * Send pacing of sessions that set none of their own (docs/api.md "Send pacing"): the least
   * time between two sends of a session, a random extra up to the jitter, "typing…" before each.
   * All unset: sends are not paced.
   */
  SEND_PACING_MIN_INTERVAL_MS: z.coerce.number().int().min(0).max(600_000).default(0),
  SEND_PACING_JITTER_MS: z.coerce.number().int().min(0).max(600_000).default(0),
  SEND_PACING_TYPING: flag.default(false),
  /** A paced send that would wait longer than this for its turn is refused (429, Retry-After). */
  SEND_QUEUE_MAX_WAIT_MS: positiveInt.default(60_000),
  /** Enables GET /metrics (Prometheus text) for `Authorization: Bearer <it>`; unset, /metrics is 404. */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Default proxy for every session's WhatsApp traffic (http://, https:// or socks5://, credentials allowed). */
  PROXY_URL: z
    .string()
    .optional()
    .superRefine((value, ctx) => {
      const problem = value === undefined ? null : proxyUrlProblem(value)
      if (problem) ctx.addIssue({ code: 'custom', message: problem })
    }),
  /**
   * Where a workspace's own proxy may be beyond the public internet: a comma list of networks
   * (10.0.0.0/8, fd00::/8), addresses and host names. The gateway host's own addresses only by
   * an entry naming that exact address.
   */
  PROXY_ALLOWED_NETWORKS: z
    .string()
    .optional()
    .transform((value) => (value ?? '').split(',').flatMap((entry) => (entry.trim() ? [entry.trim()] : [])))
    .superRefine((entries, ctx) => {
      for (const entry of entries) {
        const problem = proxyAllowEntryProblem(entry)
        if (problem) ctx.addIssue({ code: 'custom', message: problem })
      }
    }),
})

export type Env = z.infer<typeof envSchema>

/** Rules across variables, checked after each variable's own (one message per variable, as above). */
function crossProblems(e: Env): string[] {
  const problems: string[] = []
  if (e.MEDIA_STORE === 's3')
    for (const name of [
      'MEDIA_S3_BUCKET',
      'MEDIA_S3_ENDPOINT',
      'MEDIA_S3_ACCESS_KEY_ID',
      'MEDIA_S3_SECRET_ACCESS_KEY',
    ] as const)
      if (!e[name]) problems.push(`  ${name}: is required with MEDIA_STORE=s3`)
  if (e.MEDIA_STORE_MAX_BYTES < e.MEDIA_MAX_BYTES)
    problems.push('  MEDIA_STORE_MAX_BYTES: must be at least MEDIA_MAX_BYTES')
  return problems
}

export { planNames, type PlanName } from './plans'

export interface PlanLimits {
  interactiveMessages: boolean
  messageWebhooks: boolean
  dailyContactChecks: number
  /** Sessions pending, connecting or connected at once. */
  maxSessions: number
}

export interface GatewayConfig {
  port: number
  host: string
  /** Idle keep-alive connections are closed after this; headers must arrive within it plus 1 s. */
  keepAliveTimeoutMs: number
  databasePath: string
  deploymentApiKey?: string
  jwtSecret?: string
  /** When set, /v1/admin/* exists and accepts this bearer; unset, those routes do not exist. */
  adminApiKey?: string
  logLevel: Env['LOG_LEVEL']
  bodyLimitBytes: number
  /** Requests per minute per credential; 0 = no limit. */
  rateLimitPerMinute: number
  webhookAllowHttp: boolean
  allowPrivateAddresses: boolean
  /** LINK_PREVIEWS: texts with a URL get a preview by default; off, never. */
  linkPreviews: boolean
  connectTimeoutMs: number
  sendTimeoutMs: number
  sendAckTimeoutMs: number
  qrTimeoutMs?: number
  queryTimeoutMs: number
  reconnect: { baseMs: number; maxMs: number }
  /** Stored sessions reopened at once after a start. */
  restoreConcurrency: number
  plans: Record<PlanName, PlanLimits>
  media: { maxBytes: number; maxSeconds: number; timeoutMs: number; ffmpegPath?: string }
  inboundMedia: InboundMediaConfig
  /** The base of the gateway's own URLs handed to others (downloadUrl), no trailing slash. */
  publicUrl: string
  /** Message records older than this are deleted; 0 keeps them. */
  messageRetentionDays: number
  simulatorUrl?: string
  /** A pinned WhatsApp Web version (WA_VERSION): nothing is fetched. */
  waVersion?: WaVersion
  waVersionFetchTimeoutMs: number
  keepAliveIntervalMs: number
  /** The operator's default proxy (PROXY_URL) for sessions that name none. */
  proxyUrl?: string
  /** PROXY_ALLOWED_NETWORKS: networks, addresses and host names a workspace's proxy may be on besides public ones. */
  proxyAllowedNetworks: readonly string[]
  /**
   * Whether a session may name a proxy: false on the Cloudflare edge, where a Worker's sockets
   * take no custom agent, so connect and update refuse proxyUrl rather than store and ignore it.
   */
  sessionProxies: boolean
  history: HistoryConfig
  /** Send pacing of sessions without their own (SEND_PACING_*); all zero and false: off. */
  sendPacing: SendPacing
  /** The longest a paced send may wait for its turn before it is refused. */
  sendQueueMaxWaitMs: number
  /** Bearer of GET /metrics; unset: no /metrics. */
  metricsToken?: string
  webhooks: WebhookConfig
}

/** A WhatsApp Web version as Baileys announces it: [2, 3000, revision]. */
export type WaVersion = [number, number, number]

export const parseWaVersion = (text: string): WaVersion => text.split('.').map(Number) as WaVersion

export type MediaStoreConfig =
  | { kind: 'local'; dir?: string }
  | {
      kind: 's3'
      bucket: string
      endpoint: string
      region: string
      accessKeyId: string
      secretAccessKey: string
      prefix: string
      /** Each wait on the bucket (headers, the next chunk either way) at most this long. */
      timeoutMs: number
    }

export interface InboundMediaConfig {
  store: MediaStoreConfig
  maxStoreBytes: number
  download: 'lazy' | 'eager'
  urlTtlSeconds: number
  retryTimeoutMs: number
}

export interface HistoryConfig {
  /** Whether sessions may import history here: false on the Cloudflare edge (refused with a 400). */
  supported: boolean
  /** The ceiling of a session's maxMessages (HISTORY_MAX_MESSAGES). */
  maxMessages: number
  /** Inflated bytes of one chunk at most (HISTORY_CHUNK_MAX_BYTES). */
  chunkMaxBytes: number
}

export interface WebhookConfig {
  timeoutMs: number
  retryBaseMs: number
  retryMaxMs: number
  retryHours: number
  retentionHours: number
  concurrency: number
  endpointConcurrency: number
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError'
}

/** Parses the environment; a bad value throws a ConfigError naming each variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): GatewayConfig {
  const known = Object.fromEntries(
    Object.keys(envSchema.shape).map((name) => [name, env[name] === '' ? undefined : env[name]]),
  )
  const parsed = envSchema.safeParse(known)
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`)
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`)
  }
  const problems = crossProblems(parsed.data)
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`)
  return fromEnv(parsed.data)
}

function fromEnv(e: Env): GatewayConfig {
  return {
    port: e.PORT,
    host: e.HOST,
    keepAliveTimeoutMs: e.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    databasePath: e.DATABASE_PATH,
    deploymentApiKey: e.DEPLOYMENT_API_KEY,
    jwtSecret: e.JWT_SECRET,
    adminApiKey: e.ADMIN_API_KEY,
    logLevel: e.LOG_LEVEL,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    webhookAllowHttp: e.WEBHOOK_ALLOW_HTTP,
    allowPrivateAddresses: e.ALLOW_PRIVATE_ADDRESSES,
    linkPreviews: e.LINK_PREVIEWS,
    connectTimeoutMs: e.CONNECT_TIMEOUT_MS,
    sendTimeoutMs: e.SEND_TIMEOUT_MS,
    sendAckTimeoutMs: e.SEND_ACK_TIMEOUT_MS,
    qrTimeoutMs: e.QR_TIMEOUT_MS,
    queryTimeoutMs: e.WA_QUERY_TIMEOUT_MS,
    reconnect: { baseMs: e.RECONNECT_BASE_MS, maxMs: e.RECONNECT_MAX_MS },
    restoreConcurrency: e.RESTORE_CONCURRENCY,
    plans: {
      free: {
        interactiveMessages: e.FREE_INTERACTIVE_MESSAGES,
        messageWebhooks: e.FREE_MESSAGE_WEBHOOKS,
        dailyContactChecks: e.FREE_DAILY_CONTACT_CHECKS,
        maxSessions: e.FREE_MAX_SESSIONS,
      },
      paid: {
        interactiveMessages: true,
        messageWebhooks: true,
        dailyContactChecks: e.PAID_DAILY_CONTACT_CHECKS,
        maxSessions: e.PAID_MAX_SESSIONS,
      },
    },
    media: {
      maxBytes: e.MEDIA_MAX_BYTES,
      maxSeconds: e.MEDIA_MAX_SECONDS,
      timeoutMs: e.MEDIA_TIMEOUT_MS,
      ffmpegPath: e.FFMPEG_PATH,
    },
    inboundMedia: {
      store:
        e.MEDIA_STORE === 's3'
          ? {
              kind: 's3',
              bucket: e.MEDIA_S3_BUCKET!,
              endpoint: e.MEDIA_S3_ENDPOINT!,
              region: e.MEDIA_S3_REGION,
              accessKeyId: e.MEDIA_S3_ACCESS_KEY_ID!,
              secretAccessKey: e.MEDIA_S3_SECRET_ACCESS_KEY!,
              prefix: e.MEDIA_S3_PREFIX,
              timeoutMs: e.MEDIA_S3_TIMEOUT_MS,
            }
          : { kind: 'local', dir: e.MEDIA_STORE_DIR },
      maxStoreBytes: e.MEDIA_STORE_MAX_BYTES,
      download: e.MEDIA_DOWNLOAD,
      urlTtlSeconds: e.MEDIA_URL_TTL,
      retryTimeoutMs: e.MEDIA_RETRY_TIMEOUT_MS,
    },
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    messageRetentionDays: e.MESSAGE_RETENTION_DAYS,
    simulatorUrl: e.WA_SIMULATOR,
    waVersion: e.WA_VERSION ? parseWaVersion(e.WA_VERSION) : undefined,
    waVersionFetchTimeoutMs: e.WA_VERSION_FETCH_TIMEOUT_MS,
    keepAliveIntervalMs: e.WA_KEEPALIVE_INTERVAL_MS,
    proxyUrl: e.PROXY_URL,
    proxyAllowedNetworks: e.PROXY_ALLOWED_NETWORKS,
    sessionProxies: true,
    history: { supported: true, maxMessages: e.HISTORY_MAX_MESSAGES, chunkMaxBytes: e.HISTORY_CHUNK_MAX_BYTES },
    sendPacing: {
      minIntervalMs: e.SEND_PACING_MIN_INTERVAL_MS,
      jitterMs: e.SEND_PACING_JITTER_MS,
      typing: e.SEND_PACING_TYPING,
    },
    sendQueueMaxWaitMs: e.SEND_QUEUE_MAX_WAIT_MS,
    metricsToken: e.METRICS_TOKEN,
    webhooks: {
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      retryBaseMs: e.WEBHOOK_RETRY_BASE_MS,
      retryMaxMs: e.WEBHOOK_RETRY_MAX_MS,
      retryHours: e.WEBHOOK_RETRY_HOURS,
      retentionHours: e.WEBHOOK_RETENTION_HOURS,
      concurrency: e.WEBHOOK_CONCURRENCY,
      endpointConcurrency: e.WEBHOOK_ENDPOINT_CONCURRENCY,
    },
  }
}

/** Defaults for everything not given: what a gateway built in code (or a test) starts from. */
export function resolveConfig(overrides: Partial<GatewayConfig> = {}): GatewayConfig {
  return { ...loadConfig({}), ...overrides }
}
