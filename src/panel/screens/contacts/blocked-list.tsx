/** The account's block list as WhatsApp keeps it (blocks made on the phone included), each with an unblock. */
import { ErrorText, StatusText, TableBox } from '../../components/ui'
import { translator } from '../../i18n'
import { type Blocking, who } from './blocking'
import { texts } from './texts'

const t = translator(texts)

export function BlockedList({ blocking }: { blocking: Blocking }) {
  const { list } = blocking
  return (
    <section id="contact-blocked-list">
      <h2>{t('blockedList')}</h2>
      {list?.length === 0 ? <p class="muted">{t('noneBlocked')}</p> : null}
      {list?.length ? (
        <TableBox label={t('blockedList')}>
          <table>
            <thead>
              <tr>
                <th>{t('colContact')}</th>
                <th>{t('colLid')}</th>
                <th>{t('colAction')}</th>
              </tr>
            </thead>
            <tbody id="blocked">
              {list.map((party) => (
                <tr data-phone={party.phone ?? ''} data-lid={party.lid ?? ''}>
                  <td>{party.phone ? `+${party.phone}` : '—'}</td>
                  <td>{party.lid ?? '—'}</td>
                  <td>
                    <button
                      type="button"
                      class="plain small unblock"
                      disabled={blocking.busy}
                      aria-label={`${t('unblock')} ${who(party)}`}
                      onClick={() => blocking.change(party, 'unblock')}
                    >
                      {t('unblock')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableBox>
      ) : null}
      <StatusText id="block-status" message={blocking.status} />
      <ErrorText id="block-error" message={blocking.error} />
    </section>
  )
}
