import { PassThrough } from 'node:stream';
import { EVENT_HEARTBEAT_MS } from '../../../shared/schemas/events';
import {
  after,
  dataFor,
  type EventBus,
  type EventRow,
  type Position,
  positionOf,
  type Subscriber,
  type Viewer,
} from './bus';

/** A stream's text waiting for a client that reads slower than this is given up: the client reconnects and replays. */
const MAX_BUFFERED_BYTES = 1024 * 1024;

/**
 * One open `GET events`: the text/event-stream body (`out`), fed by the bus. While it replays what a reconnecting
 * client missed, live events wait in `queued`; an event at or before the last one sent is never sent again.
 */
export class EventStream implements Subscriber {
  readonly out = new PassThrough();
  readonly viewer: Viewer;
  #sent: Position | null;
  #queued: EventRow[] | null = [];
  #heartbeat: NodeJS.Timeout;
  #expiry: NodeJS.Timeout | undefined;
  #ended = false;
  readonly #onEnd: () => void;

  constructor(viewer: Viewer, since: Position | null, opts: { expiresAt: Date; onEnd: () => void }) {
    this.viewer = viewer;
    this.#sent = since;
    this.#onEnd = opts.onEnd;
    this.#heartbeat = setInterval(() => this.#write(': keep-alive\n\n'), EVENT_HEARTBEAT_MS);
    this.#heartbeat.unref();
    // A session that expires ends its stream; the client's next request is refused as expired.
    const left = opts.expiresAt.getTime() - Date.now();
    this.#expiry = setTimeout(() => this.end(), Math.max(0, Math.min(left, 2 ** 31 - 1)));
    this.#expiry.unref();
    this.out.on('close', () => this.end());
  }

  deliver(row: EventRow) {
    if (this.#queued) this.#queued.push(row);
    else this.#send(row);
  }

  /**
   * Sends what the viewer missed after `from` (a page at a time), then what arrived meanwhile, and from then on
   * each event as it comes. Without `from`, only the events after the newest one now (the bus may not have read the
   * latest yet: those are not sent).
   */
  async start(bus: EventBus, from: Position | null) {
    if (!from) this.#sent = await bus.head();
    this.#write(': connected\n\n');
    if (from) {
      let at = from;
      for (;;) {
        const rows = await bus.replay(this.viewer, at);
        for (const row of rows) this.#send(row);
        if (rows.length === 0 || this.#ended) break;
        at = positionOf(rows[rows.length - 1]);
      }
    }
    const queued = this.#queued ?? [];
    this.#queued = null;
    for (const row of queued) this.#send(row);
  }

  #send(row: EventRow) {
    if (this.#ended) return;
    const position = positionOf(row);
    if (this.#sent && !after(position, this.#sent)) return;
    this.#sent = position;
    this.#write(`id: ${row.id}\nevent: ${row.kind}\ndata: ${JSON.stringify(dataFor(this.viewer, row))}\n\n`);
    // A session ended elsewhere: its stream says so, and ends.
    if (row.kind === 'session-ended') this.end();
  }

  #write(text: string) {
    if (this.#ended) return;
    if (this.out.writableLength > MAX_BUFFERED_BYTES) {
      this.end();
      return;
    }
    this.out.write(text);
  }

  end() {
    if (this.#ended) return;
    this.#ended = true;
    clearInterval(this.#heartbeat);
    clearTimeout(this.#expiry);
    this.out.end();
    this.#onEnd();
  }
}
