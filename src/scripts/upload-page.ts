/**
 * /upload's script: pick or drop exports, check them (POST /api/admin/uploads/check), show the problems or the
 * preview, publish (POST /api/admin/uploads) and follow the job's stages by polling /api/admin/jobs/{id} once a
 * second until it ends.
 */
import { problemLine, PUBLISH_STAGES, type FileProblem, type PublishResult, type PublishStage, type UploadPreview } from '../lib/domain/operator/operator';
import { element } from './dom';
import { operatorCall, OperatorApiError, part } from './operator-http';
import { formatScore } from '../lib/domain/text/format';

interface JobView {
  id: string;
  state: 'queued' | 'running' | 'done';
  ahead: number;
  stage: PublishStage | null;
  stagesDone: PublishStage[];
  result: PublishResult | null;
}

const POLL_MS = 1000;

function fill(list: HTMLElement, lines: readonly string[]): void {
  list.replaceChildren(...lines.map((line) => element('li', line)));
}

/** Starts the page. */
export function startUploadPage(): void {
  const form = part<HTMLFormElement>('[data-upload-form]');
  const input = part<HTMLInputElement>('#upload-files');
  const status = part('[data-upload-status]');
  const problems = part('[data-problems]');
  const preview = part('[data-preview]');
  const progress = part('[data-progress]');
  const publishButton = part<HTMLButtonElement>('[data-publish]');
  let checked: File[] = [];

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

  const formOf = (files: readonly File[]) => {
    const data = new FormData();
    for (const file of files) data.append('files', file, file.name);
    return data;
  };

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const files = [...(input.files ?? [])];
    if (files.length === 0) return;
    problems.hidden = true;
    preview.hidden = true;
    progress.hidden = true;
    status.textContent = `Checking ${files.length} ${files.length === 1 ? 'file' : 'files'}...`;
    try {
      const answer = await operatorCall<{ preview: UploadPreview }>('/api/admin/uploads/check', { form: formOf(files) });
      checked = files;
      status.textContent = 'Every file passed the daily job\'s checks: read the preview, then publish.';
      showPreview(answer.preview);
    } catch (error) {
      showRefusal(error);
    }
  });

  publishButton.addEventListener('click', async () => {
    if (checked.length === 0) return;
    publishButton.disabled = true;
    resetStages();
    progress.hidden = false;
    try {
      const answer = await operatorCall<{ job: JobView; message: string }>('/api/admin/uploads', { form: formOf(checked) });
      part('[data-queue-note]').textContent = answer.message;
      await follow(answer.job.id);
    } catch (error) {
      progress.hidden = true;
      showRefusal(error);
    } finally {
      publishButton.disabled = false;
    }
  });

  function showRefusal(error: unknown): void {
    const found = error instanceof OperatorApiError && Array.isArray(error.body.problems) ? (error.body.problems as FileProblem[]) : [];
    status.textContent = error instanceof Error ? error.message : String(error);
    if (found.length > 0) {
      fill(part('[data-problem-list]'), found.map(problemLine));
      problems.hidden = false;
      part('#problems-title').focus();
    }
  }

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
    preview.hidden = false;
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

  async function follow(id: string): Promise<void> {
    for (;;) {
      const { job } = await operatorCall<{ job: JobView }>(`/api/admin/jobs/${encodeURIComponent(id)}`);
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
}
