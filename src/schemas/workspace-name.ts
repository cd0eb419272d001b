import { visibleName } from './session-name'

export const MAX_WORKSPACE_NAME_CHARS = 100

/** Workspace ids start so (src/ids.ts); lookups take an id or a name, so no name may look like an id. */
const ID_PREFIX = /^wsp_/i

/** A workspace's name: the session-name rules, and never mistakable for a workspace id. */
export const workspaceName = visibleName(MAX_WORKSPACE_NAME_CHARS)
  .refine((name) => !ID_PREFIX.test(name), 'must not start with wsp_ (workspace ids do)')
  .meta({
    description:
      `Unique; keys and the CLI refer to the workspace by it. 1 to ${MAX_WORKSPACE_NAME_CHARS} characters, ` +
      'NFC-normalised and trimmed; no control or bidirectional characters; not starting with wsp_.',
  })
