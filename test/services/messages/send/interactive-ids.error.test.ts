import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jsonBody, startTestGateway, type TestGateway } from '../../../support/gateway'

/**
 * WhatsApp hands back the chosen row's or button's id: two alike cannot be told apart, so a
 * request with repeats is refused before anything is sent, naming each repeated field.
 */
describe('repeated ids in interactive messages', () => {
  let t: TestGateway
  beforeAll(async () => {
    t = await startTestGateway({ plan: 'paid' })
  })
  afterAll(() => t.close())

  const post = async (path: string, body: unknown) => {
    const response = await t.request(path, jsonBody(body))
    return { status: response.status, body: (await response.json()) as any }
  }

  it('answers 400 naming the repeated rowId of a list, across sections', async () => {
    const { status, body } = await post('/v1/message/list', {
      sessionId: 'ses_aaaaaaaaaaaaaaaaaaaaaaaa',
      phone: '15551230001',
      text: 't',
      buttonText: 'b',
      sections: [
        {
          title: 'a',
          rows: [
            { title: 'One', rowId: 'same' },
            { title: 'Two', rowId: 'other' },
          ],
        },
        { title: 'b', rows: [{ title: 'Three', rowId: 'same' }] },
      ],
    })
    expect(status).toBe(400)
    expect(body.details.fields).toEqual([
      { path: 'sections.1.rows.0.rowId', message: 'repeats the id of sections.0.rows.0.rowId; ids must be unique' },
    ])
  })

  it('answers 400 naming the repeated buttonId', async () => {
    const { status, body } = await post('/v1/message/buttons', {
      sessionId: 'ses_aaaaaaaaaaaaaaaaaaaaaaaa',
      phone: '15551230001',
      message: 'm',
      buttons: [
        { buttonId: 'yes', buttonText: 'Yes' },
        { buttonId: 'no', buttonText: 'No' },
        { buttonId: 'yes', buttonText: 'Sure' },
      ],
    })
    expect(status).toBe(400)
    expect(body.details.fields).toEqual([
      { path: 'buttons.2.buttonId', message: 'repeats the id of buttons.0.buttonId; ids must be unique' },
    ])
  })
})
