/** The workspaces: a table with each one's plan to change, and a form for a new one. */
import { ErrorText, StatusText, TableBox, useAction } from '../../components/ui'
import { api, path } from '../../api'
import { formatDateTime, translator } from '../../i18n'
import { useState } from 'hono/jsx/dom'
import { type AdminWorkspace, PLANS } from './admin-api'
import { texts } from './texts'

const t = translator(texts)
export const planName = (plan: string) => (plan === 'free' || plan === 'paid' ? t(`plan_${plan}`) : plan)

export function Workspaces({ workspaces, reload }: { workspaces: AdminWorkspace[]; reload: () => Promise<void> }) {
  const [error, run, busy] = useAction()
  const [status, setStatus] = useState<string | null>(null)
  const act = (action: () => Promise<string>) => {
    setStatus(null)
    void run(async () => {
      const done = await action()
      await reload()
      setStatus(done)
    })
  }
  return (
    <section>
      <h2>{t('workspaces')}</h2>
      <TableBox label={t('workspaces')}>
        <table>
          <thead>
            <tr>
              <th>{t('colName')}</th>
              <th>{t('colId')}</th>
              <th>{t('colPlan')}</th>
              <th>{t('colCreated')}</th>
            </tr>
          </thead>
          <tbody id="admin-workspaces">
            {workspaces.map((w) => (
              <tr data-id={w.id} data-name={w.name}>
                <td class="text">{w.name}</td>
                <td>
                  <code>{w.id}</code>
                </td>
                <td>
                  <form
                    class="row compact nowrap"
                    onSubmit={(event: Event) => {
                      event.preventDefault()
                      const plan = String(new FormData(event.currentTarget as HTMLFormElement).get('plan'))
                      act(async () => {
                        await api('PUT', path`/v1/admin/workspaces/${w.id}/plan`, { plan })
                        return t('planChanged', { name: w.name, plan: planName(plan) })
                      })
                    }}
                  >
                    <select name="plan" class="plan" aria-label={t('planOf', { name: w.name })}>
                      {PLANS.map((plan) => (
                        <option value={plan} selected={plan === w.plan}>
                          {planName(plan)}
                        </option>
                      ))}
                    </select>
                    <button type="submit" class="plain small change-plan" disabled={busy}>
                      {t('changePlan')}
                    </button>
                  </form>
                </td>
                <td>{formatDateTime(w.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableBox>
      {workspaces.length === 0 ? <p class="muted">{t('noWorkspaces')}</p> : null}
      <h3>{t('newWorkspace')}</h3>
      <form
        id="new-workspace"
        onSubmit={(event: Event) => {
          event.preventDefault()
          const form = event.currentTarget as HTMLFormElement
          const fields = new FormData(form)
          const name = String(fields.get('name')).trim()
          act(async () => {
            await api('POST', '/v1/admin/workspaces', { name, plan: String(fields.get('plan')) })
            form.reset()
            return t('workspaceCreated', { name })
          })
        }}
      >
        <label>
          {t('name')}
          <input id="new-workspace-name" name="name" required maxlength={100} />
        </label>
        <label>
          {t('plan')}
          <select id="new-workspace-plan" name="plan">
            {PLANS.map((plan) => (
              <option value={plan}>{planName(plan)}</option>
            ))}
          </select>
        </label>
        <div class="row">
          <button type="submit" id="create-workspace" disabled={busy}>
            {t('create')}
          </button>
        </div>
      </form>
      <StatusText id="workspaces-status" message={status} />
      <ErrorText id="workspaces-error" message={error} />
    </section>
  )
}
