// @ts-check
import { defineConfig } from 'astro/config';
import react from '@astrojs/react';
import tailwindcss from '@tailwindcss/vite';
import sitemap from '@astrojs/sitemap';

export default defineConfig({
  output: 'static',
  site: process.env.SITE_URL || 'http://localhost:4321',
  trailingSlash: 'ignore',
  build: { format: 'directory' },
  // The sitemap lists every pre-rendered page, each /signal/{TICKER} included; the not-found page stays out.
  integrations: [react(), sitemap({ filter: (page) => !/\/404\/?$/.test(page) })],
  vite: {
    plugins: [tailwindcss()],
    server: {
      // npm run dev: the live API routes go to the Hono router that scripts/dev.ts starts.
      proxy: process.env.DEV_API_PORT
        ? {
            '^/api/(health|auth|stock-price|earnings-date|market-sentiment|stock-complete-data|company-info|save-company-name|polygon|download-csv|download-excel)(/|$|\\?)':
              `http://127.0.0.1:${process.env.DEV_API_PORT}`,
          }
        : undefined,
    },
  },
});
