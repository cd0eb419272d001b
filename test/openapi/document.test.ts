import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestGateway, type TestGateway } from '../support/gateway'

const run = promisify(execFile)
const methods = ['get', 'put', 'post', 'delete', 'patch'] as const

describe('GET /openapi.json', () => {
  let t: TestGateway
  let document: any
  beforeAll(async () => {
    t = await startTestGateway()
    document = await (await t.request('/openapi.json')).json()
  })
  afterAll(() => t.close())

  it('names every operation with a stable operationId (client generators need them)', () => {
    const ids = Object.values(document.paths as Record<string, any>).flatMap((item) =>
      methods.filter((m) => item[m]).map((m) => item[m].operationId),
    )
    expect(ids).toEqual([
      'connectSession',
      'listSessions',
      'updateSession',
      'disconnectSession',
      'deleteSession',
      'restartSession',
      'getSessionQr',
      'updateSessionProfile',
      'getSessionPrivacy',
      'updateSessionPrivacy',
      'listSessionWebhooks',
      'createSessionWebhook',
      'updateSessionWebhook',
      'deleteSessionWebhook',
      'getSessionChatwoot',
      'putSessionChatwoot',
      'deleteSessionChatwoot',
      'sendText',
      'sendImage',
      'sendAudio',
      'sendSticker',
      'sendVideo',
      'sendDocument',
      'sendContact',
      'sendLocation',
      'sendList',
      'sendButtons',
      'sendPoll',
      'reactToMessage',
      'editMessage',
      'deleteMessage',
      'forwardMessage',
      'listMessages',
      'getMessage',
      'getMessageMedia',
      'listChats',
      'markChatRead',
      'sendPresence',
      'checkContacts',
      'listBlockedContacts',
      'getContactProfile',
      'blockContact',
      'unblockContact',
      'subscribeContactPresence',
      'unsubscribeContactPresence',
      'getWorkspace',
      'listWebhookDeliveries',
      'retryWebhookDelivery',
      'replayWebhookEvents',
      'listWorkspaceWebhooks',
      'createWorkspaceWebhook',
      'updateWorkspaceWebhook',
      'deleteWorkspaceWebhook',
      'streamEvents',
      'streamEventsWebSocket',
      'listGroups',
      'createGroup',
      'joinGroup',
      'getGroup',
      'updateGroup',
      'updateGroupParticipants',
      'getGroupInvite',
      'revokeGroupInvite',
      'leaveGroup',
      'rejectCall',
      'postTextStatus',
      'postImageStatus',
      'postVideoStatus',
      'deleteStatus',
      'listChannels',
      'getChannelInfo',
      'followChannel',
      'unfollowChannel',
      'listChannelMessages',
      'listLabels',
      'createLabel',
      'deleteLabel',
      'updateLabel',
      'addChatLabel',
      'removeChatLabel',
      'addMessageLabel',
      'removeMessageLabel',
      'getSignedMedia',
      'chatwootCallback',
    ])
  })

  it('carries the license and a server relative to where it is served', async () => {
    expect(document.info.license).toEqual({ name: 'MIT', identifier: 'MIT' })
    expect(document.servers).toEqual([{ url: '/' }])
    const parent = new Hono().route('/wa', t.gateway.app)
    const mounted: any = await (
      await parent.request('/wa/openapi.json', { headers: { authorization: `Bearer ${t.key}` } })
    ).json()
    expect(mounted.servers).toEqual([{ url: '/wa' }])
  })

  it('describes request bodies in input form: a field with a default is optional', () => {
    const connect = document.components.requestBodies.ConnectSessionRequest.content['application/json'].schema
    expect(connect.required).toEqual(['sessionName']) // webhookUrl is optional: events are read from the stream without one
    expect(connect.properties.mode).toMatchObject({ default: 'qr' })
  })

  it('leaves responses open (a later field must not break a strict client) and requests closed', () => {
    const closed = (schema: any): string[] =>
      schema && typeof schema === 'object'
        ? [
            ...(schema.additionalProperties === false ? ['closed'] : []),
            ...Object.values(schema).flatMap((value) => closed(value)),
          ]
        : []
    const responses = Object.values(document.paths as Record<string, any>).flatMap((item) =>
      methods.flatMap((m) => (item[m] ? Object.values(item[m].responses) : [])),
    )
    expect(responses.length).toBeGreaterThan(20)
    expect(closed(responses)).toEqual([])
    expect(closed(document.components.schemas)).toEqual([])
    const text = document.components.requestBodies.SendTextRequest.content['application/json'].schema
    expect(text.additionalProperties).toBe(false)
  })

  it('passes `redocly lint` (recommended rules) with no errors', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'))
    try {
      writeFileSync(join(dir, 'openapi.json'), JSON.stringify(document))
      // Exits non-zero (run rejects) on any error; warnings are printed but do not fail.
      const { stdout, stderr } = await run(
        'npx',
        ['--no-install', 'redocly', 'lint', '--format=summary', join(dir, 'openapi.json')],
        {
          env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
        },
      )
      expect(`${stdout}${stderr}`).toMatch(/Your API description is valid/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 30_000)
})
