/** Whether a media source is a `data:` URL rather than a link: the schemas, the services and the fetcher all ask. */
export const isDataUrl = (source: string) => source.slice(0, 5).toLowerCase() === 'data:'
