/**
 * Whether the database answers, watched from outside the request path. A PostgreSQL server can
 * stop, restart, fail over or hang (its backends stopped); the server process lives on through
 * all of it: while the database is away requests are answered 503 at once, and when it answers
 * again everything that holds a connection or a copy of its data starts afresh (see `onChange`).
 */

/** PostgreSQL's SQLSTATEs for a server going away, not taking connections, or a lost connection. */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '08000', '08001', '08003', '08004', '08006', '53300']);
/** Node's socket errors for a server that is not there or went away. */
const SOCKET_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** node-postgres says these in words only. */
const LOST_CONNECTION = /Connection terminated|timeout expired|timeout exceeded when trying to connect|Query read timeout|not queryable|Connection ended|connection error|database unavailable/i;

/** Whether an error (or one it wraps) says the database cannot be reached, as opposed to a statement that failed. */
export function isUnavailable(error: unknown): boolean {
  for (let e = error as { code?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 8; e = e.cause as never, depth++) {
    if (typeof e.code === 'string' && (UNAVAILABLE_STATES.has(e.code) || SOCKET_ERRORS.has(e.code))) return true;
    if (typeof e.message === 'string' && LOST_CONNECTION.test(e.message)) return true;
  }
  return false;
}

/** node-postgres's words for an answer that did not come in time. */
const LATE = /Query read timeout|timeout expired|timeout exceeded when trying to connect|Connection terminated due to connection timeout/i;

export interface WatchOptions {
  /** How often the database is asked while it answers (ms). */
  checkMs: number;
  /** How long one question may take before the database counts as hung (ms). */
  timeoutMs: number;
  /** How often it is asked again while it is away (ms). */
  retryMs: number;
  onChange: (up: boolean) => void;
}

/**
 * Asks the database a trivial question on a connection of its own, every `checkMs` (and at once
 * when a request met a lost connection). A refused connection or two late answers in a row: the
 * database is away; the first good answer after that: it is back.
 */
export class DatabaseWatch {
  private upNow = true;
  private downSince: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private checking: Promise<void> | null = null;
  private closed = false;
  private lateAnswers = 0;

  constructor(
    private readonly probe: (timeoutMs: number) => Promise<void>,
    private readonly options: WatchOptions,
  ) {}

  get up() {
    return this.upNow;
  }

  /** When the database went away (ms since the epoch), null while it answers. */
  get since() {
    return this.downSince;
  }

  start() {
    this.schedule();
  }

  /** A request met a lost connection: ask now rather than at the next tick. */
  suspect() {
    void this.check();
  }

  /** One check (a check already running is joined). */
  check(): Promise<void> {
    this.checking ??= this.ask().finally(() => (this.checking = null));
    return this.checking;
  }

  private async ask() {
    let answered = true;
    try {
      await this.probe(this.options.timeoutMs);
      this.lateAnswers = 0;
    } catch (error) {
      // A refused or lost connection is the server away; one late answer may be a busy server
      // (its connections are all closed when it counts as away): two in a row are a hung one.
      answered = LATE.test((error as Error)?.message ?? '') && this.upNow && ++this.lateAnswers < 2;
    }
    if (this.closed || answered === this.upNow) return;
    this.lateAnswers = 0;
    this.upNow = answered;
    this.downSince = answered ? null : Date.now();
    this.options.onChange(answered);
  }

  private schedule() {
    if (this.closed) return;
    this.timer = setTimeout(
      () => void this.check().finally(() => this.schedule()),
      this.upNow ? this.options.checkMs : this.options.retryMs,
    ).unref();
  }

  async close() {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.checking;
  }
}
