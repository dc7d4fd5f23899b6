// @ts-check
import { defineConfig } from 'astro/config';
import react from '@astrojs/react';
import tailwindcss from '@tailwindcss/vite';
import { writeFile } from 'node:fs/promises';
import { parallelPrerender } from './src/build/parallel-prerender.mjs';
import { config } from './src/config';
import { LIVE_API_PATH_SOURCE } from './src/lib/domain/site/live-routes';
import { sitemapFiles } from './src/lib/domain/site/sitemap';
import { permalinkFolderOf } from './src/lib/domain/track-record/permalink';
import { siteData } from './src/lib/site-data';
import { editorialMarkdown } from './src/lib/editorial-markdown';
import { TEXT_PLACEHOLDERS } from './src/lib/site-meta';

const { siteUrl: site, devApiPort, islandFaults, paywall, stripe, prerenderThreads } = config();

/** `client:afterpaint` (src/directives/after-paint.ts): hydrate once the first frame is on screen. */
const afterPaintDirective = {
  name: 'c-score:after-paint-directive',
  hooks: {
    /** @param {{ addClientDirective: (d: { name: string; entrypoint: string }) => void }} options */
    'astro:config:setup': ({ addClientDirective }) => {
      addClientDirective({ name: 'afterpaint', entrypoint: './src/directives/after-paint.ts' });
      // `client:interaction` (src/directives/interaction.ts): hydrate on the first interaction (the /ai-analysis page).
      addClientDirective({ name: 'interaction', entrypoint: './src/directives/interaction.ts' });
    },
  },
};

/**
 * Script islands (src/renderers/script-island.ts): plain TypeScript hydrated by Astro's client directives, with no
 * framework in the browser. Listed before React, so React's check never runs (and never calls) a script island.
 */
const scriptIslands = {
  name: 'c-score:script-islands',
  hooks: {
    /** @param {{ addRenderer: (r: { name: string; serverEntrypoint: string; clientEntrypoint: string }) => void }} options */
    'astro:config:setup': ({ addRenderer }) => {
      addRenderer({
        name: 'c-score:script-island',
        serverEntrypoint: './src/renderers/script-island-server.ts',
        clientEntrypoint: './src/renderers/script-island-client.ts',
      });
    },
  },
};

/**
 * The sitemap index and its family files (src/lib/domain/site/sitemap.ts), from the pages the build wrote: each at
 * the address of its canonical link, the noindex pages (the page table's rows outside the sitemap) left out.
 */
const sitemaps = {
  name: 'c-score:sitemaps',
  hooks: {
    /** @param {{ pages: { pathname: string }[]; dir: URL }} options */
    'astro:build:done': async ({ pages, dir }) => {
      // The signal permalinks the daily job kept from the published build are pages of this one too.
      const kept = (siteData().trackView?.permalinkKept ?? []).map(permalinkFolderOf);
      for (const file of sitemapFiles([...pages.map((page) => page.pathname), ...kept], site, siteData().reportDate)) {
        await writeFile(new URL(file.name, dir), file.xml);
      }
    },
  },
};

/**
 * The stock page's scripts island (src/islands/detail/PageScripts.ts) imports the shell and the page's behaviour
 * without Vite's preload list: appending its links after the first paint was one long task, the Total Blocking Time's
 * worst, and the modules come as soon from the imports themselves.
 */
const PRELOAD_FREE_HOST = /^_astro\/PageScripts\.[\w-]+\.js$/;
const pageScriptsWithoutPreload = {
  name: 'c-score:page-scripts-without-preload',
  /** @param {string} name */
  configEnvironment: (name) =>
    name === 'client'
      ? {
          build: {
            modulePreload: {
              polyfill: false,
              /** @param {string} _file @param {string[]} deps @param {{ hostId: string }} context */
              resolveDependencies: (_file, deps, { hostId }) => (PRELOAD_FREE_HOST.test(hostId) ? [] : deps),
            },
          },
        }
      : undefined,
  // Vite writes the preload list into a chunk after its name is hashed: the salt gives the chunk without it a new name,
  // so no cache (a browser's, a CDN's) keeps the old file's bytes under the same name.
  /** @param {{ facadeModuleId: string | null }} chunk */
  augmentChunkHash: (chunk) => (chunk.facadeModuleId?.endsWith('/islands/detail/PageScripts.ts') ? 'without-preload-list' : undefined),
};

/**
 * The chart library's chunk starts with V8's compile hint (`//# allFunctionsCalledOnLoad`): Chromium compiles all of
 * its functions as the file streams in, off the main thread, instead of one by one on the main thread during the
 * chart's first drawing, which calls most of them. Added once the chunk is minified, so no minifier drops it.
 */
const CHART_LIBRARY_CHUNK = /^_astro\/lightweight-charts\.[\w.-]+\.js$/;
const chartLibraryCompileHint = {
  name: 'c-score:chart-library-compile-hint',
  /** @param {{ name: string }} chunk */
  augmentChunkHash: (chunk) => (chunk.name.startsWith('lightweight-charts') ? 'compile-hint' : undefined),
  /** @param {unknown} _options @param {Record<string, { type: string; fileName: string; code?: string }>} bundle */
  generateBundle: (_options, bundle) => {
    for (const file of Object.values(bundle)) {
      if (file.type === 'chunk' && CHART_LIBRARY_CHUNK.test(file.fileName)) file.code = `//# allFunctionsCalledOnLoad\n${file.code}`;
    }
  },
};

export default defineConfig({
  output: 'static',
  site,
  trailingSlash: 'ignore',
  // On a CDN without our server, /archives/1 is a page that sends the browser on to /archives (the Node server answers 301).
  redirects: { '/archives/1': '/archives' },
  // Every stylesheet is a cached file: a page's own sheet (the stock page's cards) loads beside the shared Base sheet,
  // in the same round trip, and keeps the page's HTML inside the first 14 KB a connection sends.
  build: { format: 'directory', inlineStylesheets: 'never' },
  integrations: [
    scriptIslands,
    // Each island's server render is one renderToString, not a web stream read back into a string: at 6,000 stock
    // pages (four islands each) that was 4 to 7 s of the build's 40 s of CPU, for the same bytes (every page compared).
    // No island suspends or calls useId, the two things streaming would change.
    react({ experimentalDisableStreaming: true }),
    afterPaintDirective,
    editorialMarkdown(TEXT_PLACEHOLDERS),
    sitemaps,
    parallelPrerender({ threads: prerenderThreads }),
  ],
  vite: {
    plugins: [tailwindcss(), pageScriptsWithoutPreload, chartLibraryCompileHint],
    // The error boundary's test hook (src/lib/domain/site/render-failure.ts): false in every build but the e2e ones.
    // The plans' words follow PAYWALL and Stripe (src/lib/domain/accounts/site-plans.ts).
    define: { __ISLAND_FAULTS__: JSON.stringify(islandFaults), __SITE_PLANS__: JSON.stringify({ paywall, billing: stripe !== null }) },
    build: { assetsInlineLimit: 12 * 1024 },
    server: {
      // npm run dev: the live API routes go to the Hono router that scripts/dev.ts starts.
      proxy: devApiPort !== null ? { [LIVE_API_PATH_SOURCE]: `http://127.0.0.1:${devApiPort}` } : undefined,
    },
  },
});
