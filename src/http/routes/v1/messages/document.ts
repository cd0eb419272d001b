import { SendDocumentBody } from '../../../../schemas/message'
import { MEDIA_SEND_ERRORS } from '../error-lists'
import { sendEndpoint } from './send-endpoint'

export const { route: sendDocumentRoute, endpoint: sendDocumentEndpoint } = sendEndpoint({
  kind: 'document',
  operationId: 'sendDocument',
  path: '/v1/message/document',
  summary: 'Send a file as a document',
  description:
    'Any file up to MEDIA_MAX_BYTES, sent byte for byte. Its type is sniffed from the bytes (`application/octet-stream` when unknown); its name is `fileName`, else the URL’s last path segment made safe, else `document`.',
  body: SendDocumentBody,
  errors: MEDIA_SEND_ERRORS,
})
