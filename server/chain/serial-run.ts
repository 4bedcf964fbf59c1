/**
 * Runs a piece of work one at a time: asked again while it runs, it runs once more afterwards (so a
 * new block seen mid-scan is never missed, and two scans never overlap). Failures go to `onError`.
 */
export class SerialRun {
  private running: Promise<void> | undefined;
  private again = false;
  private readonly work: () => Promise<unknown>;
  private readonly onError: (error: unknown) => void;

  constructor(work: () => Promise<unknown>, onError: (error: unknown) => void) {
    this.work = work;
    this.onError = onError;
  }

  /** Starts a run, or asks for one more after the current one; resolves when the run it joined ends. */
  kick(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.work()
      .then(() => undefined, this.onError)
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          void this.kick();
        }
      });
    return this.running;
  }

  /** Resolves when no run is under way (nor asked for). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }
}
