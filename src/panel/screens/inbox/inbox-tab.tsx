/**
 * The session's inbox (`#/session/<id>/inbox[/<chat>]`): its chats beside the open conversation;
 * on a narrow screen one at a time, the conversation with a link back to the list.
 */
import type { Session } from '../../sessions'
import { ChatList, useChats } from './chat-list'
import { Conversation } from './conversation'
import type { Chat } from './rules'
import { translator } from '../../i18n'
import { texts } from './texts'

const t = translator(texts)

/** The names the chat list knows, by every form a message names a person with (number, LID). */
function namesOf(chats: Chat[]): Map<string, string> {
  const names = new Map<string, string>()
  for (const chat of chats) {
    if (chat.isGroup || !chat.name) continue
    for (const key of [chat.chat, chat.phone, chat.lid]) if (key) names.set(key, chat.name)
  }
  return names
}

export function InboxTab({ session, chatId }: { session: Session; chatId: string | null }) {
  const chats = useChats(session.sessionId)
  const names = namesOf(chats.chats)
  return (
    <div class={chatId ? 'inbox open' : 'inbox'} id="inbox">
      <ChatList sessionId={session.sessionId} chats={chats} selected={chatId} names={names} />
      {chatId ? (
        <div class="conversation-pane" key={`${session.sessionId} ${chatId}`}>
          <Conversation
            session={session}
            chatId={chatId}
            chat={chats.chats.find((chat) => chat.chat === chatId)}
            names={names}
          />
        </div>
      ) : (
        <section class="conversation-pane empty">
          <p class="muted">{t('chooseChat')}</p>
        </section>
      )}
    </div>
  )
}
