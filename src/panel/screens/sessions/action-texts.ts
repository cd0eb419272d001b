import { defineTexts } from '../../i18n'

/** The texts of a session's actions (session-actions.tsx). */
export const actionTexts = defineTexts({
  en: {
    restart: 'Restart',
    disconnect: 'Disconnect',
    confirmDisconnect: 'Disconnect "{name}"? The device is unlinked from the phone.',
    linkAgain: 'Link again',
    confirmLinkAgainProxy:
      'Link "{name}" again? Its proxy’s password is not shown to the panel, so the new link goes without the proxy: set it again under Settings.',
    deleteSession: 'Delete',
    confirmDelete:
      'Delete "{name}" for good? Its messages, received files, events, delivery log and other webhooks go with it. This cannot be undone.',
    deleted: '"{name}" deleted: {counts}.',
    removed_messages: '{n} messages',
    removed_media: '{n} files',
    removed_events: '{n} events',
    removed_deliveries: '{n} deliveries',
    removed_webhooks: '{n} webhooks',
    removed_chatwoot: '{n} Chatwoot integrations',
    removed_groups: '{n} groups',
    removed_contacts: '{n} contacts',
    removed_authKeys: '{n} credential keys',
    removed_idempotencyKeys: '{n} idempotency keys',
  },
  'pt-BR': {
    restart: 'Reiniciar',
    disconnect: 'Desconectar',
    confirmDisconnect: 'Desconectar "{name}"? O dispositivo é desvinculado do telefone.',
    linkAgain: 'Vincular de novo',
    confirmLinkAgainProxy:
      'Vincular "{name}" de novo? A senha do proxy não é mostrada ao painel, então o novo vínculo fica sem o proxy: defina-o de novo em Configurações.',
    deleteSession: 'Excluir',
    confirmDelete:
      'Excluir "{name}" definitivamente? Suas mensagens, arquivos recebidos, eventos, registro de entregas e demais webhooks vão junto. Não dá para desfazer.',
    deleted: '"{name}" excluída: {counts}.',
    removed_messages: '{n} mensagens',
    removed_media: '{n} arquivos',
    removed_events: '{n} eventos',
    removed_deliveries: '{n} entregas',
    removed_webhooks: '{n} webhooks',
    removed_chatwoot: '{n} integrações com o Chatwoot',
    removed_groups: '{n} grupos',
    removed_contacts: '{n} contatos',
    removed_authKeys: '{n} chaves de credenciais',
    removed_idempotencyKeys: '{n} chaves de idempotência',
  },
  es: {
    restart: 'Reiniciar',
    disconnect: 'Desconectar',
    confirmDisconnect: '¿Desconectar "{name}"? El dispositivo se desvincula del teléfono.',
    linkAgain: 'Vincular de nuevo',
    confirmLinkAgainProxy:
      '¿Vincular "{name}" de nuevo? La contraseña de su proxy no se muestra al panel, así que el nuevo vínculo queda sin proxy: configúralo de nuevo en Ajustes.',
    deleteSession: 'Eliminar',
    confirmDelete:
      '¿Eliminar "{name}" definitivamente? Se van con ella sus mensajes, archivos recibidos, eventos, registro de entregas y demás webhooks. No se puede deshacer.',
    deleted: '"{name}" eliminada: {counts}.',
    removed_messages: '{n} mensajes',
    removed_media: '{n} archivos',
    removed_events: '{n} eventos',
    removed_deliveries: '{n} entregas',
    removed_webhooks: '{n} webhooks',
    removed_chatwoot: '{n} integraciones con Chatwoot',
    removed_groups: '{n} grupos',
    removed_contacts: '{n} contactos',
    removed_authKeys: '{n} claves de credenciales',
    removed_idempotencyKeys: '{n} claves de idempotencia',
  },
})
