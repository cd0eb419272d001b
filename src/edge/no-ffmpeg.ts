/** Stand-in for @ffmpeg-installer/ffmpeg in the Worker bundle (wrangler [alias]): there is no ffmpeg to run. */
export const path = 'ffmpeg-unavailable-on-workers'
export const version = 'none'
export default { path, version }
