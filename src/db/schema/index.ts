export * from './workspaces'
export * from './api-keys'
