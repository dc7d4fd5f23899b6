/** What the AI routes keep in memory: finished answers by report date and ticker, and the generations under way. */

/** Answers kept by key, the oldest dropped past the cap. A stored text never changes, so an entry never goes stale; a new report has new keys. */
export class AnswerCache<T> {
  private readonly entries = new Map<string, T>();

  constructor(
    /** The most answers kept. */
    readonly capacity: number,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new Error(`An answer cache keeps at least one answer: got a capacity of ${capacity}.`);
  }

  private static key(reportDate: string, ticker: string): string {
    return `${reportDate}|${ticker}`;
  }

  get(reportDate: string, ticker: string): T | undefined {
    return this.entries.get(AnswerCache.key(reportDate, ticker));
  }

  set(reportDate: string, ticker: string, value: T): void {
    const key = AnswerCache.key(reportDate, ticker);
    if (!this.entries.has(key) && this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, value);
  }

  get size(): number {
    return this.entries.size;
  }
}

/** Runs a piece of work once per key however many ask while it runs: every caller gets the one result (or failure). */
export class InFlight<T> {
  private readonly running = new Map<string, Promise<T>>();

  run(key: string, work: () => Promise<T>): Promise<T> {
    let promise = this.running.get(key);
    if (promise === undefined) {
      promise = work().finally(() => this.running.delete(key));
      this.running.set(key, promise);
    }
    return promise;
  }

  /** How many keys have work under way. */
  get size(): number {
    return this.running.size;
  }
}
