import { api, data, expect, expectAccessible, fixture, interval, num, screenshot, signIn, test } from './support';

/*
 * The console against the real server the fixture filled: each page shows the numbers the API returns (read
 * here through the generated client with the same key), keyboard navigation works, axe finds no serious
 * violation, and every page is photographed (console/e2e/screenshots).
 */

test.describe('leaderboard', () => {
  for (const split of ['test', 'train', 'canonical'] as const) {
    test(`ranks the agents of the ${split} split with the API's pass^1, pass^k and mean score, ties marked as ties`, async ({ page }) => {
      const f = fixture();
      await signIn(page, f.readerKey);
      const board = await data(api(f.readerKey).GET('/leaderboard', { params: { query: { split } } }));
      expect(board.boards.length).toBeGreaterThan(0);
      await page.goto(`${f.url}/console/?split=${split}`);
      for (const b of board.boards) {
        const section = page.locator(`article[data-config="${b.config_hash}"]`);
        await expect(section).toBeVisible();
        await expect(section.locator('thead')).toContainText(`pass^${b.trials}`);
        const tierSizes = new Map<number, number>();
        for (const e of b.entries) tierSizes.set(e.tier, (tierSizes.get(e.tier) ?? 0) + 1);
        for (const e of b.entries) {
          const row = section.locator(`tr[data-run="${e.run_id}"]`);
          await expect(row.locator('td').first()).toHaveText(String(e.rank));
          await expect(row.locator('[data-field="pass_hat_1"]')).toHaveText(interval(e.pass_hat_1));
          await expect(row.locator('[data-field="pass_hat_k"]')).toHaveText(interval(e.pass_hat_k));
          await expect(row.locator('[data-field="mean_score"]')).toHaveText(interval(e.mean_score));
          await expect(row.locator('.badge.tie')).toHaveCount((tierSizes.get(e.tier) ?? 0) > 1 ? 1 : 0);
        }
        // Each board's chart is drawn, and does not spill over its table.
        const chart = section.locator('.chart[role="img"]');
        await expect(chart.locator('svg').first()).toBeVisible();
        const [chartBox, tableBox] = [await chart.boundingBox(), await section.locator('table').boundingBox()];
        expect(chartBox!.y + chartBox!.height).toBeLessThanOrEqual(tableBox!.y + 1);
        const drawn = await chart.evaluate((box) => Math.max(...[...box.querySelectorAll('svg')].map((svg) => svg.getBoundingClientRect().bottom)) - box.getBoundingClientRect().bottom);
        expect(drawn).toBeLessThanOrEqual(1);
      }
      const agents = board.boards.flatMap((b) => b.entries.map((e) => e.agent));
      expect(agents.length).toBeGreaterThanOrEqual(2);
      // The two scripted agents of the train split are within noise of each other: the page must show a tie.
      if (split === 'train') expect(board.boards.some((b) => new Set(b.entries.map((e) => e.tier)).size < b.entries.length)).toBe(true);
      if (split === 'canonical') expect(board.boards.some((b) => new Set(b.entries.map((e) => e.tier)).size > 1)).toBe(true);
      await expectAccessible(page);
      await screenshot(page, `leaderboard-${split}`);
    });
  }

  test('without a key, says the server needs one; signing in with the form shows the board', async ({ page, consoleErrors }) => {
    consoleErrors.allow(401);
    const f = fixture();
    await page.goto(`${f.url}/console/`);
    await expect(page.getByRole('alert')).toContainText('401');
    await page.getByRole('link', { name: 'Sign in with a key' }).click();
    await page.getByLabel('API key').fill(f.readerKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.locator('table.leaderboard-table').first()).toBeVisible();
    await expect(page.getByText('Signed in')).toBeVisible();
    // The key itself is never on the page.
    expect(await page.content()).not.toContain(f.readerKey.slice(-6));
  });
});

test.describe('run page', () => {
  test('shows the run\'s results as GET /runs/{id} gives them: overall, per family, terminations and tokens', async ({ page }) => {
    const f = fixture();
    await signIn(page, f.readerKey);
    const run = await data(api(f.readerKey).GET('/runs/{run_id}', { params: { path: { run_id: f.oracleRun } } }));
    const results = run.results!;
    expect(results).not.toBeNull();
    await page.goto(`${f.url}/console/runs/${f.oracleRun}`);
    const overall = page.locator('[data-section="overall"]');
    await expect(overall.locator('[data-field="mean_score"] .stat-value')).toHaveText(interval(results.overall.mean_score));
    await expect(overall.locator('[data-field="pass_hat_1"] .stat-value')).toHaveText(interval(results.overall.pass_hat_k.find((p) => p.k === 1)));
    await expect(overall.locator('[data-field="pass_hat_k"] .stat-value')).toHaveText(interval(results.overall.pass_hat_k.find((p) => p.k === run.trials)));
    for (const family of results.families) {
      const row = page.locator(`tr[data-family="${family.task_id}"]`).first();
      await expect(row.locator('[data-field="mean_score"]')).toHaveText(interval(family.mean_score));
      await expect(row.locator('[data-field="success_rate"]')).toHaveText(interval(family.success_rate));
      for (const p of family.pass_hat_k) await expect(row.locator(`[data-field="pass_hat_${p.k}"]`)).toHaveText(interval(p));
      const components = page.locator(`[data-section="components"] tr[data-family="${family.task_id}"]`);
      for (const c of family.components) await expect(components.locator(`[data-component="${c.name}"]`)).toHaveText(num(c.mean));
    }
    const terminations = page.locator('[data-section="terminations"]');
    for (const [reason, n] of Object.entries(results.terminations)) await expect(terminations.locator(`[data-field="${reason}"]`)).toHaveText(String(n));
    await expect(page.locator('[data-section="totals"] [data-field="steps"]')).toHaveText(results.totals.steps.toLocaleString('en-US'));
    // The cells: a row per (family, seed), a column per trial, every trial's cell in its row.
    await expect(page.locator('.cells-table tbody tr')).toHaveCount(run.families.length * run.seeds.length);
    await expect(page.locator('.cells-table thead th', { hasText: /^Trial \d+$/ })).toHaveCount(run.trials);
    await expect(page.locator('.cells-table tbody tr').first().locator('a.cell')).toHaveCount(run.trials);
    // Three charts: means with intervals, pass^k with bands, flip rate.
    await expect(page.locator('.charts .chart[role="img"]:has(svg)')).toHaveCount(3);
    await expectAccessible(page);
    await screenshot(page, 'run');
  });

  test('compares two runs with the paired differences and verdicts of GET /runs/{a}/compare/{b}', async ({ page }) => {
    const f = fixture();
    await signIn(page, f.readerKey);
    const comparison = await data(api(f.readerKey).GET('/runs/{run_a}/compare/{run_b}', { params: { path: { run_a: f.baselineRun, run_b: f.scriptedTestRun } } }));
    await page.goto(`${f.url}/console/runs/${f.baselineRun}`);
    await page.getByLabel(/Compare .* with/).selectOption(f.scriptedTestRun);
    await expect(page).toHaveURL(new RegExp(`compare=${f.scriptedTestRun}`));
    const view = page.locator('[data-section="compare"]');
    const words = { a_better: 'A is better', b_better: 'B is better', within_noise: 'within noise' } as const;
    await expect(view.locator('p [data-field="verdict"]')).toHaveText(words[comparison.overall.verdict]);
    await expect(view.locator('p [data-field="difference"]')).toHaveText(interval(comparison.overall.difference));
    for (const family of comparison.families) {
      const row = view.locator(`tr[data-family="${family.task_id}"]`);
      await expect(row.locator('[data-field="difference"]')).toHaveText(interval(family.difference));
      await expect(row.locator('[data-field="verdict"]')).toHaveText(words[family.verdict]);
    }
    await expectAccessible(page);
    await screenshot(page, 'run-compare');
  });

  test('shows a filling run\'s progress live', async ({ page }) => {
    const f = fixture();
    await signIn(page, f.readerKey);
    await page.goto(`${f.url}/console/runs/${f.openRun}`);
    const progress = page.locator('.card [data-field="progress"]');
    await expect(progress).toContainText('0/2 finished');
    await expect(page.locator('.badge.live')).toBeVisible();
    const { fillRun } = await import('./fixture/scripted-agent');
    await fillRun(api(f.agentKey), f.openRun, 1);
    // The page polls while the run is open: no reload.
    await expect(progress).toContainText('1/2 finished', { timeout: 15_000 });
  });

  test('an agent key sees its run without scores', async ({ page }) => {
    const f = fixture();
    await signIn(page, f.agentKey);
    const run = await data(api(f.agentKey).GET('/runs/{run_id}', { params: { path: { run_id: f.scriptedTestRun } } }));
    expect(run.results).toBeNull();
    await page.goto(`${f.url}/console/runs/${f.scriptedTestRun}`);
    await expect(page.locator('.withheld')).toHaveText(run.results_withheld!);
    await expect(page.locator('[data-section="overall"]')).toHaveCount(0);
    await expect(page.locator('.cells-table')).toBeVisible();
    // No cell shows a score: each reads its status only.
    const cellTexts = await page.locator('.cells-table .cell').allTextContents();
    expect(cellTexts.length).toBe(run.families.length * run.seeds.length * run.trials);
    for (const text of cellTexts) expect(text).toMatch(/^finished \(\w[\w ]*\)$/);
  });
});

test.describe('episode browser', () => {
  test('filters by split and feedback, pages with the cursor, and shows the rows /episodes returns', async ({ page }) => {
    const f = fixture();
    await signIn(page, f.readerKey);
    const reader = api(f.readerKey);
    await page.goto(`${f.url}/console/episodes`);
    await page.getByLabel('split').selectOption('train');
    await page.getByLabel('feedback').selectOption('dense');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect(page).toHaveURL(/split=train/);
    await expect(page).toHaveURL(/feedback=dense/);
    const first = await data(reader.GET('/episodes', { params: { query: { split: 'train', feedback: 'dense', limit: 50 } } }));
    // What the page shows is filtered, not only what the API answered.
    await expect(page.locator('tbody tr[data-episode] [data-field="split"]')).toHaveText(Array(first.items.length).fill('train'));
    await expect(page.locator('tbody tr[data-episode] [data-field="feedback"]')).toHaveText(Array(first.items.length).fill('dense'));
    await expect(page.locator('tbody tr[data-episode]')).toHaveCount(first.items.length);
    await expect(page.locator('tbody tr[data-episode]').first()).toHaveAttribute('data-episode', first.items[0].episode_id);
    for (const item of first.items.slice(0, 5)) await expect(page.locator(`tr[data-episode="${item.episode_id}"] [data-field="score"]`)).toHaveText(num(item.score));
    expect(first.next_cursor).toBeTruthy();
    const second = await data(reader.GET('/episodes', { params: { query: { split: 'train', feedback: 'dense', limit: 50, cursor: first.next_cursor! } } }));
    await page.getByRole('button', { name: 'Next →' }).click();
    await expect(page.locator('tbody tr[data-episode]').first()).toHaveAttribute('data-episode', second.items[0].episode_id);
    await expect(page.locator('tbody tr[data-episode]')).toHaveCount(second.items.length);
    await page.getByRole('button', { name: '← Previous' }).click();
    await expect(page.locator('tbody tr[data-episode]').first()).toHaveAttribute('data-episode', first.items[0].episode_id);
    await expectAccessible(page);
    await screenshot(page, 'episodes');
  });

  test('filters by run: the run\'s episodes and no other', async ({ page }) => {
    const f = fixture();
    await signIn(page, f.readerKey);
    const items = (await data(api(f.readerKey).GET('/episodes', { params: { query: { run_id: f.scriptedTestRun, limit: 50 } } }))).items;
    expect(items.length).toBeGreaterThan(0);
    await page.goto(`${f.url}/console/episodes`);
    await page.getByLabel('run id').fill(f.scriptedTestRun);
    await page.getByLabel('run id').press('Enter');
    await expect(page).toHaveURL(new RegExp(`run_id=${f.scriptedTestRun}`));
    await expect(page.locator('tbody tr[data-episode]')).toHaveCount(items.length);
    for (const item of items) await expect(page.locator(`tr[data-episode="${item.episode_id}"]`)).toHaveCount(1);
  });

  test('filters by tag and says so when nothing matches', async ({ page }) => {
    const f = fixture();
    await signIn(page, f.readerKey);
    await page.goto(`${f.url}/console/episodes?tag=console-fixture`);
    await expect(page.locator('tbody tr[data-episode]')).toHaveCount(3);
    await page.goto(`${f.url}/console/episodes?tag=no-such-tag`);
    await expect(page.locator('.empty-state')).toContainText('No episode matches these filters');
  });
});

test.describe('trajectory viewer', () => {
  test('shows each step as the step route replays it, and marks the reply\'s sentences by their verdict', async ({ page }) => {
    const f = fixture();
    await signIn(page, f.readerKey);
    const reader = api(f.readerKey);
    // Episodes whose reply the grade has something to say about, sentence by sentence: one of the oracle's
    // (written with typographic quotes and dashes, emphasis and a double space, which the grader cleans up before
    // it reads) and one of the baseline's (plain ASCII).
    const chosen: Array<{ episodeId: string; step: number; message: string }> = [];
    for (const [runId, written] of [[f.oracleRun, /—.*\*\*/], [f.baselineRun, /^[\x20-\x7e]*$/]] as const) {
      const cells = (await data(reader.GET('/runs/{run_id}/cells', { params: { path: { run_id: runId }, query: { limit: 1000 } } }))).cells;
      for (const cell of cells) {
        const actions = await data(reader.GET('/episodes/{episode_id}/actions', { params: { path: { episode_id: cell.episode_id! } } }));
        const reply = actions.actions.find((a) => (a.action as { type: string }).type === 'send_reply');
        const message = (reply?.action as { message?: string } | undefined)?.message ?? '';
        if (!reply || !written.test(message)) continue;
        const view = await data(reader.GET('/episodes/{episode_id}/steps/{step}', { params: { path: { episode_id: cell.episode_id!, step: reply.step } } }));
        if (view.reply_details.some((d) => d.reply_step === reply.step && d.sentence) || view.penalties.some((p) => p.step === reply.step && p.sentence)) {
          chosen.push({ episodeId: cell.episode_id!, step: reply.step, message });
          break;
        }
      }
    }
    expect(chosen.map((c) => /—.*\*\*/.test(c.message))).toEqual([true, false]);
    for (const { episodeId, step } of chosen) {
      const view = await data(reader.GET('/episodes/{episode_id}/steps/{step}', { params: { path: { episode_id: episodeId, step } } }));
      await page.goto(`${f.url}/console/episodes/${episodeId}?step=${step}`);
      const detail = page.locator(`.step-detail[data-step="${step}"]`);
      await expect(detail.locator('[data-field="reward"]')).toHaveText(num((view.entry as { reward: number | null }).reward));
      await expect(detail.locator('[data-field="score_after"]')).toHaveText(num((view.entry as { score_after: number | null }).score_after));
      await expect(detail.locator('[data-section="changes"] tbody tr')).toHaveCount(view.changes.length);
      // Each sentence the grade names is marked in the reply as written, with the worst of its verdicts.
      const verdicts = new Map<string, Set<string>>();
      const add = (sentence: string, verdict: string) => verdicts.set(sentence.trim(), (verdicts.get(sentence.trim()) ?? new Set()).add(verdict));
      for (const d of view.reply_details) if (d.reply_step === step && d.sentence) add(d.sentence, d.covered ? 'covered' : 'missed');
      for (const p of view.penalties) if (p.step === step && p.sentence) add(p.sentence, 'penalty');
      expect(verdicts.size).toBeGreaterThan(0);
      const marks = detail.locator('mark.sentence');
      await expect(marks).toHaveCount(verdicts.size);
      const shown = await marks.evaluateAll((all) => all.map((m) => ({ text: (m.firstChild?.textContent ?? '').trim(), verdict: m.getAttribute('data-verdict') })));
      const asGraded = (text: string) => text.normalize('NFKC').replace(/[\u2010-\u2015\u2212]/g, '-').replace(/[\u2018\u2019]/g, "'").replace(/[\u201c\u201d]/g, '"').replace(/\*\*|__|`/g, '').replace(/[ \t]+/g, ' ').trim();
      expect(shown.map((m) => [asGraded(m.text), m.verdict]).sort()).toEqual(
        [...verdicts.entries()].map(([sentence, kinds]) => [sentence, kinds.has('penalty') ? 'penalty' : kinds.has('missed') ? 'missed' : 'covered']).sort(),
      );
      // The grade after the step: every component with what it earned.
      for (const c of view.components) await expect(detail.locator(`[data-section="grade"] tr[data-component="${c.name}"]`)).toContainText(`${num(c.earned)} / ${num(c.weight)}`);
      const verify = await data(reader.GET('/episodes/{episode_id}/verify', { params: { path: { episode_id: episodeId } } }));
      await expect(page.locator('[data-section="verify"]')).toContainText(verify.chain_ok ? 'chain intact' : 'chain broken');
      await expect(page.locator('[data-section="verify"]')).toContainText(verify.replay_ok ? 'replay matches' : 'replay differs');
      await expectAccessible(page);
    }
    await screenshot(page, 'trajectory');
  });

  test('moves between steps with the keyboard, and each step has its own URL', async ({ page }) => {
    const f = fixture();
    await signIn(page, f.readerKey);
    const cells = await data(api(f.readerKey).GET('/runs/{run_id}/cells', { params: { path: { run_id: f.scriptedTrainRun }, query: { limit: 1 } } }));
    const episodeId = cells.cells[0].episode_id!;
    await page.goto(`${f.url}/console/episodes/${episodeId}`);
    await expect(page.locator('.step-detail[data-step="0"]')).toBeVisible();
    await page.locator('.step-list a[data-step="0"]').focus();
    await page.keyboard.press('ArrowDown');
    await expect(page).toHaveURL(/step=1/);
    await expect(page.locator('.step-detail[data-step="1"]')).toBeVisible();
    await expect(page.locator('.step-list a[data-step="1"]')).toBeFocused();
    await page.keyboard.press('j');
    await expect(page).toHaveURL(/step=2/);
    await page.keyboard.press('ArrowUp');
    await expect(page).toHaveURL(/step=1/);
    await page.keyboard.press('k');
    await expect(page).toHaveURL(/step=0/);
    await expect(page.locator('.step-list a[data-step="0"]')).toBeFocused();
    await page.keyboard.press('End');
    const actions = await data(api(f.readerKey).GET('/episodes/{episode_id}/actions', { params: { path: { episode_id: episodeId } } }));
    await expect(page).toHaveURL(new RegExp(`step=${actions.actions.length}`));
    await expect(page.locator(`.step-list a[data-step="${actions.actions.length}"]`)).toBeFocused();
    await page.keyboard.press('Home');
    await expect(page).toHaveURL(/step=0/);
    await page.keyboard.press('End');
    // The URL opens the same step in a new page.
    const url = page.url();
    const other = await page.context().newPage();
    await other.goto(url);
    await expect(other.locator(`.step-detail[data-step="${actions.actions.length}"]`)).toBeVisible();
    await other.close();
    // The skip link and the sections are reachable from the keyboard.
    await page.goto(`${f.url}/console/episodes/${episodeId}`);
    await expect(page.locator('.step-detail[data-step="0"]')).toBeVisible();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect(page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Leaderboard' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/console\/?$/);
    // The new page takes focus at its content, as a page load would.
    await expect(page.locator('main#main')).toBeFocused();
  });

  test('puts two trials of one family and seed side by side, aligned by step', async ({ page }) => {
    const f = fixture();
    await signIn(page, f.readerKey);
    await page.goto(`${f.url}/console/runs/${f.scriptedTrainRun}`);
    await page.getByRole('link', { name: /compare trials 0 and 1/ }).first().click();
    await expect(page).toHaveURL(/vs=/);
    const [a, b] = [new URL(page.url()).pathname.split('/').pop()!, new URL(page.url()).searchParams.get('vs')!];
    const reader = api(f.readerKey);
    const [left, right] = await Promise.all([a, b].map(async (id) => (await data(reader.GET('/episodes/{episode_id}/actions', { params: { path: { episode_id: id } } }))).actions));
    const rows = page.locator('table.aligned tbody tr');
    await expect(rows).toHaveCount(Math.max(left.length, right.length) + 1);
    const differing = Array.from({ length: Math.max(left.length, right.length) }, (_, i) => JSON.stringify(left[i]?.action) !== JSON.stringify(right[i]?.action)).filter(Boolean).length;
    expect(differing).toBeGreaterThan(0);
    await expect(page.locator('table.aligned tr.differ')).toHaveCount(differing);
    await page.locator('table.aligned tbody tr[data-step="2"] a').click();
    await expect(page.locator('.step-detail[data-step="2"]')).toHaveCount(2);
    // The aligned table moves with the keyboard too, to the end of the longer episode.
    await page.locator('table.aligned tbody tr[data-step="2"] a').focus();
    await page.keyboard.press('ArrowDown');
    await expect(page).toHaveURL(/step=3/);
    await page.keyboard.press('End');
    await expect(page).toHaveURL(new RegExp(`step=${Math.max(left.length, right.length)}`));
    await page.keyboard.press('Home');
    await expect(page).toHaveURL(/step=0/);
    await page.locator('table.aligned tbody tr[data-step="2"] a').click();
    await expectAccessible(page);
    await screenshot(page, 'trajectory-side-by-side');
  });
});

test.describe('task catalogue', () => {
  test('lists every family as GET /tasks does and previews a train instance with an agent key', async ({ page }) => {
    const f = fixture();
    await signIn(page, f.agentKey);
    const { tasks } = await data(api(f.agentKey).GET('/tasks'));
    await page.goto(`${f.url}/console/tasks`);
    await expect(page.locator('article[data-task]')).toHaveCount(tasks.length);
    for (const t of tasks) await expect(page.locator(`article[data-task="${t.id}"]`)).toContainText(t.family?.hard ?? t.title);
    await expectAccessible(page);
    await screenshot(page, 'tasks');
    const taskId = tasks[0].id;
    const preview = await data(api(f.agentKey).GET('/tasks/{task_id}/instances/{seed}', { params: { path: { task_id: taskId, seed: 1 } } }));
    await page.locator(`article[data-task="${taskId}"]`).getByRole('link', { name: 'Preview an instance' }).click();
    await expect(page.locator('[data-section="preview"] [data-field="split"]')).toHaveText('train');
    await expect(page.locator('.ticket')).toHaveCount(preview.tickets.length);
    for (const ticket of preview.tickets) await expect(page.locator(`.ticket[data-ticket="${ticket.ticket_id}"]`)).toContainText(ticket.subject);
    await expectAccessible(page);
    await screenshot(page, 'task-preview');
  });

  test('shows a test instance to a reader key only', async ({ page, consoleErrors }) => {
    consoleErrors.allow(403);
    const f = fixture();
    await signIn(page, f.agentKey);
    await page.goto(`${f.url}/console/tasks/${(await data(api(f.agentKey).GET('/tasks'))).tasks[0].id}?seed=5`);
    await expect(page.getByRole('alert')).toContainText('403');
    await expect(page.locator('.ticket')).toHaveCount(0);
    const reader = await page.context().browser()!.newContext();
    const readerPage = await reader.newPage();
    await signIn(readerPage, f.readerKey);
    await readerPage.goto(page.url());
    await expect(readerPage.locator('[data-section="preview"] [data-field="split"]')).toHaveText('test');
    await reader.close();
  });
});

test.describe('layout', () => {
  test('is readable on a phone: no page scrolls sideways, and pages do not shift while data loads', async ({ page }) => {
    const f = fixture();
    await signIn(page, f.readerKey);
    await page.setViewportSize({ width: 390, height: 844 });
    const cells = await data(api(f.readerKey).GET('/runs/{run_id}/cells', { params: { path: { run_id: f.scriptedTrainRun }, query: { limit: 1 } } }));
    const pages = ['/console/', `/console/runs/${f.scriptedTrainRun}`, '/console/episodes', `/console/episodes/${cells.cells[0].episode_id}?step=2`, '/console/tasks'];
    // Layout shifts as the browser reports them (the Layout Instability API), from each page's first paint on.
    await page.addInitScript(() => {
      (window as unknown as { shift: number }).shift = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>) if (!entry.hadRecentInput) (window as unknown as { shift: number }).shift += entry.value;
      }).observe({ type: 'layout-shift', buffered: true });
    });
    for (const path of pages) {
      await page.goto(`${f.url}${path}`);
      await page.waitForLoadState('networkidle');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${path} scrolls sideways by ${overflow}px`).toBeLessThanOrEqual(1);
      const shift = await page.evaluate(() => (window as unknown as { shift: number }).shift);
      expect(shift, `${path} cumulative layout shift`).toBeLessThan(0.1);
    }
    await page.goto(`${f.url}/console/`);
    await page.waitForLoadState('networkidle');
    await screenshot(page, 'leaderboard-phone');
    await page.goto(`${f.url}${pages[3]}`);
    await page.waitForLoadState('networkidle');
    await screenshot(page, 'trajectory-phone');
  });
});
