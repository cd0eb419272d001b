export * from './workspaces'
export * from './api-keys'
export * from './sessions'
export * from './wa-auth'
