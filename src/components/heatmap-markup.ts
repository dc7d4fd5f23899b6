/**
 * The heatmap's sector index and tiles as HTML, from heatmapLayout's sectors: the build renders them into the page,
 * and the Pro script (scripts/list/pro-rows.ts) renders the full market the same way for a signed-in Pro user, so
 * both draw one markup.
 */
import { heatmapColor, UNCLASSIFIED, type HeatmapSector } from '../lib/domain/signals/heatmap';
import { hubAddress } from '../lib/domain/signals/hubs';
import { formatScore } from '../lib/domain/text/format';
import { classifySignal, isQualified } from '../lib/domain/signals/signal';
import { escapeHtml as escape } from '../lib/domain/text/text';

/** A sector's anchor id: lower case words joined by dashes. */
export function sectorSlug(sector: string): string {
  return sector.toLowerCase().replace(/[^a-z0-9]+/g, '-');
}

/** A sector's or sub-industry's name as a link to its hub (the stocks without one have none). */
function hubLink(kind: 'sector' | 'industry', name: string): string {
  return name === UNCLASSIFIED || name.trim() === '' ? escape(name) : `<a class="heat-hub" href="${hubAddress(kind, name)}">${escape(name)}</a>`;
}

/** The links that jump to each sector, with its tile count. */
export function heatmapIndexHtml(sectors: readonly HeatmapSector[]): string {
  return sectors.map((s) => `<a href="#${sectorSlug(s.sector)}">${escape(s.sector)} (${s.count})</a>`).join('');
}

/** Every sector's section: its title, its sub-industries, and a tile (a link to the stock) per ticker. */
export function heatmapSectorsHtml(sectors: readonly HeatmapSector[]): string {
  return sectors
    .map((s) => {
      const id = sectorSlug(s.sector);
      const groups = s.groups
        .map((g) => {
          const tiles = g.tiles
            .map((t) => {
              const style = `background:${heatmapColor(t.cScore)}${t.size === 1 ? '' : `;--w:${t.size}`}`;
              const cls = isQualified(t.cScore) ? 'tile q' : 'tile';
              return (
                `<a href="/signal/${escape(t.ticker)}" data-detail-link data-top="${t.isTopTicker}" class="${cls}" style="${style}">` +
                // The tooltip (and the link's name) says company, score and signal; the tile's own score is for the eye.
                `<b>${escape(t.ticker)}</b> <span aria-hidden="true">${formatScore(t.cScore)}</span>` +
                `<i class="tip">${escape(t.company)}, C-Score ${formatScore(t.cScore)}, ${classifySignal(t.cScore)}</i></a>`
              );
            })
            .join('');
          return `<div class="heat-group"><h3 class="heat-group-title">${hubLink('industry', g.subIndustry)}</h3><div class="heat-tiles">${tiles}</div></div>`;
        })
        .join('');
      return (
        // Its tile count sizes the sector until it is first laid out (heatmap.css: off-screen sectors wait).
        `<section class="heat-sector" aria-labelledby="${id}" style="--n:${s.count}">` +
        `<h2 class="heat-sector-title" id="${id}">${hubLink('sector', s.sector)} <span class="muted">(${s.count})</span></h2>${groups}</section>`
      );
    })
    .join('');
}
