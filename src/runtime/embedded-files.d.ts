// Imports `with { type: 'file' }` (Bun): the value is the embedded file's path. Only the binary entry uses them.
declare module 'swagger-ui-dist/swagger-ui-bundle.js' {
  const path: string
  export default path
}
declare module 'swagger-ui-dist/swagger-ui.css' {
  const path: string
  export default path
}
declare module '@ffmpeg-installer/linux-x64/ffmpeg' {
  const path: string
  export default path
}
