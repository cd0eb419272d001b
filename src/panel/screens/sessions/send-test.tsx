/** A test send: text, an image, a voice note or an audio file by URL, through the documented send routes. */
import { ErrorText, useAction } from '../../components/ui'
import { api } from '../../api'
import { translator } from '../../i18n'
import type { Session } from '../../sessions'
import { upsertMessage } from './messages'
import { texts } from './texts'

const t = translator(texts)

export function SendTest({ session }: { session: Session }) {
  const [error, run, busy] = useAction()
  return (
    <section>
      <h2>{t('sendTest')}</h2>
      <form
        onSubmit={(event: Event) => {
          event.preventDefault()
          const form = event.currentTarget as HTMLFormElement
          const fields = new FormData(form)
          const common = { sessionId: session.sessionId, phone: String(fields.get('phone')) }
          const kind = String(fields.get('kind'))
          const value = String(fields.get('value'))
          const [route, body] =
            kind === 'text'
              ? ['text', { ...common, message: value }]
              : kind === 'image'
                ? ['image', { ...common, imageUrl: value }]
                : ['audio', { ...common, audioUrl: value, ptt: kind === 'ptt' }]
          void run(async () => {
            upsertMessage(await api('POST', `/v1/message/${route}`, body))
            ;(form.elements.namedItem('value') as HTMLTextAreaElement).value = ''
          })
        }}
      >
        <label>
          {t('to')}
          <input id="send-phone" name="phone" required placeholder={t('toPlaceholder')} />
        </label>
        <label>
          {t('what')}
          <select id="send-kind" name="kind">
            <option value="text">{t('kindText')}</option>
            <option value="image">{t('kindImage')}</option>
            <option value="ptt">{t('kindPtt')}</option>
            <option value="audio">{t('kindAudio')}</option>
          </select>
        </label>
        <label>
          {t('content')}
          <textarea id="send-text" name="value" rows={2} required placeholder={t('contentPlaceholder')} />
        </label>
        <div class="row">
          <button type="submit" id="send" disabled={busy}>
            {t('send')}
          </button>
        </div>
        <ErrorText id="send-error" message={error} />
      </form>
    </section>
  )
}
