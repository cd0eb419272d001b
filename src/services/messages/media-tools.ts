/** The media layer's contract lives with it, below services (src/media/port.ts). */
export type { MediaField, MediaTools, PreparedVideo } from '../../media/port'
