/*
 * The groups part of the engine port (beside index.ts, the port's entry): groups as
 * WhatsApp describes them, the changes it notifies members of, and the commands on a session's groups.
 */

/** Someone in a group, as WhatsApp lists them (phone and LID are digits, each where known). */
export interface GroupMember {
  /** How the group addresses them: `<lid>@lid` in LID-addressed groups, else `<phone>@s.whatsapp.net`. */
  jid: string
  phone?: string
  lid?: string
  admin: 'superadmin' | 'admin' | null
}

/** A group the account is in, as WhatsApp describes it. */
export interface GroupInfo {
  jid: string
  subject: string
  description?: string
  owner?: Omit<GroupMember, 'admin'>
  /** Only admins send messages. */
  announce: boolean
  /** Only admins edit the group's info (WhatsApp: locked). */
  restrict: boolean
  /** Members who are not admins may add people too. */
  memberAddMode: boolean
  addressingMode: 'lid' | 'pn'
  ephemeralSeconds?: number
  createdAt?: Date
  participants: GroupMember[]
}

/** Who did something in a group (digits), each where WhatsApp named it. */
export interface GroupActor {
  phone?: string
  lid?: string
}

export type ParticipantAction = 'add' | 'remove' | 'promote' | 'demote'

/** WhatsApp's answer for one phone of a create or a participants change. */
export interface ParticipantOutcome {
  /** Digits, as asked. */
  phone: string
  /** 200 when done; else WhatsApp's code (403 privacy, 404 unknown, 408 left recently, 409 already in). */
  code: number
  /** How the group lists them now, when done. */
  member?: GroupMember
  /** A privacy refusal (403 on add): the invite WhatsApp offers to send them instead. */
  invite?: { code: string; expiresAt: Date }
}

/** A change of a group's info; only the fields present change. `description: null` deletes it. */
export interface GroupChange {
  subject?: string
  description?: string | null
  announce?: boolean
  restrict?: boolean
}

/** One change WhatsApp notified a group's members of (a `w:gp2` notification child). */
export type GroupNotice = { groupJid: string; author?: GroupActor; at: Date } & (
  | {
      /** The account is in a group it was not in: created, added, or joined by link (`reason: invite`). */
      kind: 'joined'
      group: GroupInfo
      reason?: string
    }
  | { kind: 'participants'; action: ParticipantAction; members: GroupMember[]; reason?: string }
  | { kind: 'changed'; change: GroupChange }
)

/**
 * A session's groups at WhatsApp. Reads go to WhatsApp only where the store kept from the
 * facts above cannot answer (one query per login, and what a change returns).
 */
export interface SessionGroups {
  /**
   * Resolves once the groups of the current login were fetched and reported (`groups-synced`);
   * fetches them again when the last attempt failed.
   */
  synced(): Promise<void>
  /** One metadata query. */
  info(jid: string): Promise<GroupInfo>
  create(subject: string, phones: string[]): Promise<{ group: GroupInfo; outcomes: ParticipantOutcome[] }>
  /** One query for the batch; an outcome per distinct phone. */
  updateParticipants(jid: string, action: ParticipantAction, phones: string[]): Promise<ParticipantOutcome[]>
  /** One query per field present (subject, description, announce, restrict, in that order); `applied` hears each one WhatsApp took. */
  change(jid: string, change: GroupChange, applied?: (field: keyof GroupChange) => void): Promise<void>
  inviteCode(jid: string): Promise<string>
  /** Resets the link; answers the new code. */
  revokeInvite(jid: string): Promise<string>
  /** Joins by an invite link's code; answers the group's jid. */
  join(code: string): Promise<string>
  leave(jid: string): Promise<void>
}
