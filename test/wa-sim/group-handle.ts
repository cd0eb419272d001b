// A group as tests see it, and what its members (contacts, or accounts acting from their phone)
// do to it: the same server operations, checks and notifications as a client's <iq>s.
import { SimulatorError } from './errors'
import { memberByJid, memberOf, roleOf } from './group-nodes'
import {
  groupOf,
  GroupRefusal,
  leaveGroup,
  setDescription,
  setSetting,
  setSubject,
  updateParticipants,
  type ParticipantAction,
  type ParticipantAnswer,
} from './group-ops'
import type { Group, SimState } from './state'

export interface GroupSnapshot {
  jid: string
  subject: string
  description: string | undefined
  announce: boolean
  restrict: boolean
  inviteCode: string
  participants: { phone: string; lid: string; admin: 'superadmin' | 'admin' | null }[]
}

/** One participant's outcome of a member's add/remove/promote/demote: WhatsApp's code, 200 when done. */
export interface ParticipantOutcome {
  phone: string
  code: number
}

const STATUS_BY_CODE: Record<number, number> = { 401: 403, 403: 403, 404: 404, 406: 400, 410: 410 }

/** A refusal as the simulator's API reports it: `group_<text>` with WhatsApp's code in the message. */
const refused = <T>(work: () => T): T => {
  try {
    return work()
  } catch (error) {
    if (!(error instanceof GroupRefusal)) throw error
    throw new SimulatorError(
      `group_${error.text.replace(/-/g, '_')}`,
      `WhatsApp answers ${error.code} ${error.text}`,
      STATUS_BY_CODE[error.code] ?? 409,
    )
  }
}

export class GroupHandle {
  constructor(
    private readonly state: SimState,
    readonly jid: string,
  ) {}

  private get group(): Group {
    return refused(() => groupOf(this.state, this.jid))
  }

  info(): GroupSnapshot {
    const group = this.group
    return {
      jid: group.jid,
      subject: group.subject,
      description: group.description?.text,
      announce: group.announce,
      restrict: group.restrict,
      inviteCode: group.inviteCode,
      participants: group.participants.map((phone) => ({
        phone,
        lid: memberOf(this.state, phone)?.lidJid.split('@')[0] ?? '',
        admin: roleOf(group, phone) ?? null,
      })),
    }
  }

  /**
   * What `phone` (a contact, or an account from its phone) does to the group. `notify: false`
   * changes it without telling any member's device, as if the notifications were lost: the way
   * to leave a client's copy of the group out of date.
   */
  by(phone: string, options: { notify?: boolean } = {}): GroupMemberActions {
    return new GroupMemberActions(this.state, this.jid, phone.replace(/\D/g, ''), options.notify ?? true)
  }
}

export class GroupMemberActions {
  constructor(
    private readonly state: SimState,
    private readonly jid: string,
    private readonly phone: string,
    private readonly notify: boolean,
  ) {
    if (!memberOf(state, this.phone)) throw new SimulatorError('unknown_user', `no account or contact ${phone}`, 404)
  }

  private act<T>(work: (group: Group) => T): T {
    this.state.groupNotificationsLost = !this.notify
    try {
      return refused(() => work(groupOf(this.state, this.jid)))
    } finally {
      this.state.groupNotificationsLost = false
    }
  }

  setSubject(subject: string): void {
    this.act((group) => setSubject(this.state, group, this.phone, subject))
  }

  /** null deletes the description. */
  setDescription(text: string | null): void {
    this.act((group) =>
      setDescription(this.state, group, this.phone, {
        ...(text === null ? {} : { text }),
        ...(group.description ? { prev: group.description.id } : {}),
      }),
    )
  }

  setSettings(settings: { announce?: boolean; restrict?: boolean }): void {
    this.act((group) => {
      if (settings.announce !== undefined)
        setSetting(this.state, group, this.phone, settings.announce ? 'announcement' : 'not_announcement')
      if (settings.restrict !== undefined)
        setSetting(this.state, group, this.phone, settings.restrict ? 'locked' : 'unlocked')
    })
  }

  participants(action: ParticipantAction, phones: string[]): ParticipantOutcome[] {
    const jids = phones.map((p) => `${p.replace(/\D/g, '')}@s.whatsapp.net`)
    const answers = this.act((group) => updateParticipants(this.state, group, this.phone, action, jids))
    return answers.map((answer: ParticipantAnswer) => ({
      phone: answer.member?.phone ?? memberByJid(this.state, answer.jid)?.phone ?? answer.jid.split('@')[0] ?? '',
      code: answer.error ?? 200,
    }))
  }

  leave(): void {
    this.act((group) => leaveGroup(this.state, group, this.phone))
  }
}
