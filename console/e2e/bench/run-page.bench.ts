import { test } from '@playwright/test';
import { readFileSync } from 'node:fs';

/*
 * Time to first render of a 1,200-episode run page: from navigation to the page showing the run's results (the
 * overall figures, the three charts and the first rows of cells), in a fresh browser context each time (nothing
 * cached). Beside it, in the same run, the floor: the API calls the page makes (the run, and every page of its
 * cells), made directly from Node.
 */
const REPEATS = 7;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

test('first render of a 1,200-episode run page', async ({ browser }) => {
  const { url, readerKey, runId, cells } = JSON.parse(readFileSync(process.env.CONSOLE_BENCH!, 'utf8')) as { url: string; readerKey: string; runId: string; cells: number };
  const renders: number[] = [];
  const floors: number[] = [];
  for (let i = 0; i < REPEATS; i++) {
    const headers = { authorization: `Bearer ${readerKey}` };
    const t0 = performance.now();
    const cellPages = async () => {
      for (let cursor = ''; ; ) {
        const page = (await (await fetch(`${url}/runs/${runId}/cells?limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { headers })).json()) as { next_cursor: string | null };
        if (!page.next_cursor) return;
        cursor = page.next_cursor;
      }
    };
    await Promise.all([fetch(`${url}/runs/${runId}`, { headers }).then((r) => r.json()), cellPages()]);
    floors.push(performance.now() - t0);

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addInitScript((k) => window.sessionStorage.setItem('supportdesk.apiKey', k), readerKey);
    const page = await context.newPage();
    await page.goto(`${url}/console/runs/${runId}`, { waitUntil: 'commit' });
    await page.locator('[data-section="overall"] [data-field="mean_score"]').waitFor();
    await page.locator('.charts .chart[role="img"]:has(svg)').nth(2).waitFor();
    await page.locator('.cells-table tbody tr').first().waitFor();
    // performance.now() in the page counts from the navigation's start.
    renders.push(await page.evaluate(() => performance.now()));
    await context.close();
  }
  const line = `run page with ${cells} episodes: first render median ${median(renders).toFixed(0)} ms (runs: ${renders.map((r) => r.toFixed(0)).join(', ')}); its API calls alone: median ${median(floors).toFixed(0)} ms; ratio ${(median(renders) / median(floors)).toFixed(2)}`;
  console.log(line);
});
