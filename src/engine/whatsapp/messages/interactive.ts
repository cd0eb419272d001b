/**
 * Interactive list and reply-button messages, built as the native-flow `interactiveMessage`
 * that current WhatsApp clients render. The legacy `listMessage`/`buttonsMessage` protos are
 * no longer shown by phones, so they are not used.
 *
 * What is verified here (tests against the project's simulator): the proto is well-formed,
 * encrypted to every device and decrypts to exactly these fields, and the stanza carries the
 * `biz > interactive(native_flow) > native_flow(mixed)` node.
 *
 * What cannot be verified without a real phone: that a given app version renders it. The
 * shape follows what WhatsApp Web itself sends for business messages (view-once wrapper with
 * device-list metadata, `single_select` for lists and `quick_reply` for buttons, params as
 * JSON strings, `native_flow` v9 "mixed" in the stanza); WhatsApp may change any of it, and
 * accounts without a business profile may see "message not supported" on some clients.
 */
import type { BinaryNode, proto } from '@whiskeysockets/baileys'
import type { ListSection, ReplyButton } from '../port/messages'

/** The stanza node that tells WhatsApp's servers and clients this is a native-flow message. */
export const INTERACTIVE_STANZA_NODES: BinaryNode[] = [
  {
    tag: 'biz',
    attrs: {},
    content: [
      {
        tag: 'interactive',
        attrs: { type: 'native_flow', v: '1' },
        content: [{ tag: 'native_flow', attrs: { v: '9', name: 'mixed' } }],
      },
    ],
  },
]

interface Frame {
  text: string
  title?: string
  footer?: string
}

function wrap(
  frame: Frame,
  buttons: proto.Message.InteractiveMessage.NativeFlowMessage.INativeFlowButton[],
): proto.IMessage {
  return {
    viewOnceMessage: {
      message: {
        messageContextInfo: { deviceListMetadata: {}, deviceListMetadataVersion: 2 },
        interactiveMessage: {
          ...(frame.title ? { header: { title: frame.title, hasMediaAttachment: false } } : {}),
          body: { text: frame.text },
          ...(frame.footer ? { footer: { text: frame.footer } } : {}),
          nativeFlowMessage: { buttons, messageParamsJson: '', messageVersion: 1 },
        },
      },
    },
  }
}

/** A list: one `single_select` button that opens the sections. */
export function listMessage(input: {
  text: string
  buttonText: string
  title?: string
  footer?: string
  sections: ListSection[]
}): proto.IMessage {
  const params = {
    title: input.buttonText,
    sections: input.sections.map((section) => ({
      title: section.title,
      rows: section.rows.map((row) => ({
        id: row.rowId,
        title: row.title,
        ...(row.description ? { description: row.description } : {}),
      })),
    })),
  }
  return wrap(input, [{ name: 'single_select', buttonParamsJson: JSON.stringify(params) }])
}

/** Reply buttons: one `quick_reply` per button; a tap comes back as a message carrying its id. */
export function buttonsMessage(input: { text: string; footer?: string; buttons: ReplyButton[] }): proto.IMessage {
  return wrap(
    input,
    input.buttons.map((button) => ({
      name: 'quick_reply',
      buttonParamsJson: JSON.stringify({ display_text: button.buttonText, id: button.buttonId }),
    })),
  )
}
