/**
 * An upstream sent a message over its link's size cap. Whatever the link, the stream cannot be trusted to resume at
 * a message boundary, so the links' shared reading of transport errors (link-support.ts) drops the link with reason
 * `message-too-large`.
 */
export class UpstreamMessageTooLarge extends Error {
  constructor(
    readonly limit: number,
    /** The link's kind as a message names it: `stdio`, `HTTP`. */
    readonly link: string,
  ) {
    super(`an upstream ${link} message exceeds the maximum size of ${limit} bytes`);
    this.name = 'UpstreamMessageTooLarge';
  }
}
