/**
 * The publish queue: one daily job at a time in this server. A publish asked while another runs waits
 * its turn and is told its place; each job's stage is kept so the upload page can poll it by id.
 */
import { randomUUID } from 'node:crypto';
import type { FileProblem, PublishResult, PublishStage, RunTrigger, UploadedFile, UploadPreview } from '../lib/domain/operator/operator';

/** What the operator routes ask of the daily job; scripts/start.ts passes the pipeline's (src/ingest/operator-tools.ts). */
export interface OperatorTools {
  validate(files: readonly UploadedFile[]): Promise<FileProblem[]>;
  preview(files: readonly UploadedFile[]): Promise<{ problems: FileProblem[] } | { preview: UploadPreview }>;
  publish(files: readonly UploadedFile[], trigger: RunTrigger, onStage: (stage: PublishStage) => void): Promise<PublishResult>;
}

/** A publish job as its status route answers it. */
export interface PublishJobView {
  id: string;
  trigger: RunTrigger;
  files: string[];
  state: 'queued' | 'running' | 'done';
  /** Jobs that run before this one (0 once it runs). */
  ahead: number;
  stage: PublishStage | null;
  stagesDone: PublishStage[];
  queuedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  result: PublishResult | null;
}

interface Job extends PublishJobView {
  upload: readonly UploadedFile[];
  done: Promise<PublishResult>;
}

/** Jobs kept for their status route once done. */
const KEPT_JOBS = 50;

/** Runs publishes one after the other. */
export class PublishQueue {
  readonly #tools: OperatorTools;
  readonly #jobs = new Map<string, Job>();
  readonly #waiting: Job[] = [];
  #running: Job | null = null;
  #tail: Promise<unknown> = Promise.resolve();

  constructor(tools: OperatorTools) {
    this.#tools = tools;
  }

  /** Queues a publish of `files`; it starts when the jobs before it have ended. */
  enqueue(files: readonly UploadedFile[], trigger: RunTrigger): { view: PublishJobView; done: Promise<PublishResult> } {
    const job: Job = {
      id: randomUUID(),
      trigger,
      files: files.map((f) => f.name),
      state: 'queued',
      ahead: 0,
      stage: null,
      stagesDone: [],
      queuedAt: new Date().toISOString(),
      startedAt: null,
      finishedAt: null,
      result: null,
      upload: files,
      done: this.#tail.then(() => this.#run(job)),
    };
    this.#waiting.push(job);
    this.#tail = job.done.catch(() => undefined);
    this.#jobs.set(job.id, job);
    this.#forgetOld();
    return { view: this.view(job.id)!, done: job.done };
  }

  /** A job's state, or null when it is unknown (or long done). */
  view(id: string): PublishJobView | null {
    const job = this.#jobs.get(id);
    if (job === undefined) return null;
    const { upload: _upload, done: _done, ...view } = job;
    const waitingAt = this.#waiting.indexOf(job);
    return { ...view, stagesDone: [...job.stagesDone], ahead: waitingAt < 0 ? 0 : waitingAt + (this.#running === null ? 0 : 1) };
  }

  /** The daily job's tools this queue publishes with (the routes check and preview with them too). */
  get tools(): OperatorTools {
    return this.#tools;
  }

  /** How many jobs run or wait. */
  get pending(): { running: boolean; waiting: number } {
    return { running: this.#running !== null, waiting: this.#waiting.length };
  }

  async #run(job: Job): Promise<PublishResult> {
    this.#waiting.splice(this.#waiting.indexOf(job), 1);
    this.#running = job;
    job.state = 'running';
    job.startedAt = new Date().toISOString();
    try {
      job.result = await this.#tools.publish(job.upload, job.trigger, (stage) => {
        if (job.stage !== null && !job.stagesDone.includes(job.stage)) job.stagesDone.push(job.stage);
        job.stage = stage;
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      job.result = { outcome: 'failed', reportDate: null, warnings: [], messages: [message], summary: message };
    }
    if (job.result.outcome === 'published' && job.stage !== null && !job.stagesDone.includes(job.stage)) job.stagesDone.push(job.stage);
    job.state = 'done';
    job.finishedAt = new Date().toISOString();
    job.upload = [];
    this.#running = null;
    return job.result;
  }

  #forgetOld(): void {
    const done = [...this.#jobs.values()].filter((job) => job.state === 'done');
    for (const job of done.slice(0, Math.max(0, done.length - KEPT_JOBS))) this.#jobs.delete(job.id);
  }
}
