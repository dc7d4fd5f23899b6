/** What the operator pages' scripts share: their parts and their clock (their calls: lib/client/operator.ts). */

/** The first element matching `selector` under `root`; a page without it is a broken build. */
export function part<T extends Element = HTMLElement>(selector: string, root: ParentNode = document): T {
  const found = root.querySelector<T>(selector);
  if (found === null) throw new Error(`The page lacks ${selector}.`);
  return found;
}

/** A time as the operator's clock shows it, with the date. */
export function localTime(iso: string | null): string {
  if (iso === null) return '-';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

/** Shows a failed action's sentence in its section's status line. */
export function failed(where: HTMLElement): (error: unknown) => void {
  return (error) => {
    where.textContent = error instanceof Error ? error.message : String(error);
  };
}
