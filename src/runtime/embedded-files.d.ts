// Imports `with { type: 'file' }` (Bun): the value is the embedded file's path. Only the binary entry uses them.
declare module 'swagger-ui-dist/swagger-ui-bundle.js' {
  const path: string
  export default path
}
declare module 'swagger-ui-dist/swagger-ui.css' {
  const path: string
  export default path
}
// Resolved by scripts/build-binary.ts to the target CPU's @ffmpeg-installer/linux-* executable.
declare module 'binary-target:ffmpeg' {
  const path: string
  export default path
}
