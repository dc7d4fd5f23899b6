/**
 * /upload's script: pick or drop exports, check them (POST /api/admin/uploads/check), show the problems or the
 * preview, publish (POST /api/admin/uploads) and follow the job's stages by polling /api/admin/jobs/{id} once a
 * second until it ends.
 */
import { problemLine, PUBLISH_STAGES, type FileProblem, type PublishResult, type UploadPreview } from '../lib/domain/operator/operator';
import { operatorApi as api } from '../lib/client/api-client';
import { ApiError } from '../lib/client/http';
import { operatorAnswer } from '../lib/client/operator';
import { element } from './dom';
import { part } from './operator-page';
import { formatScore } from '../lib/domain/text/format';

const POLL_MS = 1000;

function fill(list: HTMLElement, lines: readonly string[]): void {
  list.replaceChildren(...lines.map((line) => element('li', line)));
}

/** The files as the multipart body the upload routes read (field "files"). */
function formOf(files: readonly File[]): FormData {
  const data = new FormData();
  for (const file of files) data.append('files', file, file.name);
  return data;
}

/** The file picker and the drop zone: the picked files listed under it. */
function startPicker(form: HTMLFormElement, input: HTMLInputElement): void {
  const showPicked = () => fill(part('[data-picked]'), [...(input.files ?? [])].map((f) => `${f.name} (${Math.max(1, Math.round(f.size / 1024))} KB)`));
  input.addEventListener('change', showPicked);
  form.addEventListener('dragover', (event) => {
    event.preventDefault();
    form.dataset.dragging = '';
  });
  form.addEventListener('dragleave', () => delete form.dataset.dragging);
  form.addEventListener('drop', (event) => {
    event.preventDefault();
    delete form.dataset.dragging;
    if (event.dataTransfer?.files.length) {
      input.files = event.dataTransfer.files;
      showPicked();
    }
  });
}

/** A refused check or publish: its sentence in the status line, and each file's problems listed. */
function showRefusal(error: unknown): void {
  const body = error instanceof ApiError ? (error.body as { problems?: unknown } | undefined) : undefined;
  const found = Array.isArray(body?.problems) ? (body.problems as FileProblem[]) : [];
  part('[data-upload-status]').textContent = error instanceof Error ? error.message : String(error);
  if (found.length > 0) {
    fill(part('[data-problem-list]'), found.map(problemLine));
    part('[data-problems]').hidden = false;
    part('#problems-title').focus();
  }
}

/** The check: the form's submit sends the files to POST /api/admin/uploads/check; `passed` hears the files that passed. */
function startCheck(form: HTMLFormElement, input: HTMLInputElement, passed: (files: File[]) => void): void {
  const status = part('[data-upload-status]');
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const files = [...(input.files ?? [])];
    if (files.length === 0) return;
    part('[data-problems]').hidden = true;
    part('[data-preview]').hidden = true;
    part('[data-progress]').hidden = true;
    status.textContent = `Checking ${files.length} ${files.length === 1 ? 'file' : 'files'}...`;
    try {
      const answer = await operatorAnswer(api.admin.uploads.check.$post(undefined, { init: { body: formOf(files) } }));
      passed(files);
      status.textContent = 'Every file passed the daily job\'s checks: read the preview, then publish.';
      showPreview(answer.preview);
    } catch (error) {
      showRefusal(error);
    }
  });
}

/** The preview of a check that passed: each file, the report's changes, the warnings. */
function showPreview(view: UploadPreview): void {
  const rows = view.files.map((file) => {
    const row = element('tr');
    const cells = [
      `${file.file} (${file.kind.toUpperCase()})`,
      file.reportDates.join(', '),
      String(file.rows),
      String(file.tickers),
      file.sheets.map((s) => `${s.name} (${s.rows} ${s.rows === 1 ? 'row' : 'rows'}${s.isActive ? ', signals' : ''})`).join('; '),
      String(file.bullish),
      String(file.bearish),
      file.replaces.length === 0 ? 'No archived report' : file.replaces.map((r) => `${r.reportDate} of ${r.file}`).join('; '),
    ];
    row.append(...cells.map((text, i) => element(i === 0 ? 'th' : 'td', text, i === 0 ? { scope: 'row' } : {})));
    return row;
  });
  part('[data-preview-files]').replaceChildren(...rows);
  const { changes } = view;
  part('[data-report-line]').textContent =
    changes.publishedReportDate === changes.reportDate
      ? `After publishing, the latest report stays ${changes.reportDate}, with these changes against the report before it.`
      : `After publishing, the latest report is ${changes.reportDate} (the site shows ${changes.publishedReportDate ?? 'no report'} today).`;
  const lists: [string, string[]][] = [
    ['New signals', changes.newSignals.map((s) => `${s.ticker}: ${s.direction}, C-Score ${formatScore(s.cScore)}`)],
    ['Exits', changes.exits.map((e) => `${e.ticker}: ${e.from} to neutral`)],
    ['Reversals', changes.reversals.map((r) => `${r.ticker}: ${r.from} to ${r.to}`)],
  ];
  part('[data-change-lists]').replaceChildren(
    ...lists.flatMap(([title, lines]) => {
      const list = element('ul', '', { class: 'note-list' });
      fill(list, lines.length > 0 ? lines : ['None']);
      return [element('h3', `${title} (${lines.length})`, { class: 'font-medium' }), list];
    }),
  );
  fill(part('[data-warning-list]'), view.warnings);
  part('[data-preview-warnings]').hidden = view.warnings.length === 0;
  part('[data-preview]').hidden = false;
}

/** Publishing: the button sends the checked files to POST /api/admin/uploads and follows the job to its end. */
function startPublish(checkedFiles: () => File[]): void {
  const progress = part('[data-progress]');
  const publishButton = part<HTMLButtonElement>('[data-publish]');
  publishButton.addEventListener('click', async () => {
    const checked = checkedFiles();
    if (checked.length === 0) return;
    publishButton.disabled = true;
    resetStages();
    progress.hidden = false;
    try {
      const answer = await operatorAnswer(api.admin.uploads.$post(undefined, { init: { body: formOf(checked) } }));
      part('[data-queue-note]').textContent = answer.message;
      await follow(answer.job.id);
    } catch (error) {
      progress.hidden = true;
      showRefusal(error);
    } finally {
      publishButton.disabled = false;
    }
  });
}

function resetStages(): void {
  for (const item of document.querySelectorAll<HTMLElement>('[data-stage]')) setStage(item, 'pending');
  part('[data-result-line]').textContent = '';
  part('[data-summary]').hidden = true;
}

function setStage(item: HTMLElement, state: 'pending' | 'running' | 'done' | 'failed'): void {
  item.dataset.state = state;
  part('[data-stage-state]', item).textContent = { pending: 'waiting', running: 'running now', done: 'done', failed: 'failed here' }[state];
}

/** Polls the job once a second, marking its stages, until it ends; then shows its result. */
async function follow(id: string): Promise<void> {
  for (;;) {
    const { job } = await operatorAnswer(api.admin.jobs[':id'].$get({ param: { id: encodeURIComponent(id) } }));
    const failed = job.state === 'done' && job.result !== null && job.result.outcome !== 'published' && job.result.outcome !== 'up-to-date';
    for (const stage of PUBLISH_STAGES) {
      const item = part(`[data-stage="${stage}"]`);
      if (job.stagesDone.includes(stage)) setStage(item, 'done');
      else if (job.stage === stage) setStage(item, failed ? 'failed' : job.state === 'done' ? 'done' : 'running');
      else setStage(item, 'pending');
    }
    part('[data-queue-note]').textContent =
      job.state === 'queued' ? `Waiting in the queue: ${job.ahead} ${job.ahead === 1 ? 'job' : 'jobs'} ahead of this one.` : job.state === 'running' ? 'The daily job is running.' : 'The daily job has ended.';
    if (job.state === 'done' && job.result !== null) return showResult(job.result);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

function showResult(result: PublishResult): void {
  const line = part('[data-result-line]');
  line.replaceChildren();
  if (result.outcome === 'published') {
    line.append(`Published: the site now shows the report of ${result.reportDate}. `, element('a', 'Open the dashboard', { href: '/', class: 'link' }));
  } else if (result.outcome === 'up-to-date') {
    line.textContent = `Nothing new: these files were already in the archive, the site still shows ${result.reportDate}.`;
  } else {
    // Every message: a refusal's first line only introduces the problems (a data gate's, the smoke check's) below it.
    line.textContent = `Not published: the site stays as it was. ${result.messages.join(' ')}`;
  }
  const summary = part('[data-summary]');
  summary.textContent = result.summary;
  summary.hidden = false;
}

/** Starts the page: pick, check, publish. */
export function startUploadPage(): void {
  const form = part<HTMLFormElement>('[data-upload-form]');
  const input = part<HTMLInputElement>('#upload-files');
  let checked: File[] = [];
  startPicker(form, input);
  startCheck(form, input, (files) => {
    checked = files;
  });
  startPublish(() => checked);
}
