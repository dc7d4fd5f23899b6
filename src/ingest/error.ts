/** A failure that stops the daily job with a message for the operator and leaves dist/ and the archive as they were. */
export class DailyJobError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DailyJobError';
  }
}
