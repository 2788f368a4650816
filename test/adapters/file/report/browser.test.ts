/**
 * The job report in a real headless Chromium (Debian's `chromium` package, driven by
 * playwright-core): it renders offline with no request but the file itself, its screenshot is
 * not blank, the counts it draws are the job's, and hostile input values stay text.
 * Without /usr/bin/chromium the suite skips with the reason in its title; in CI (CI=true) it
 * fails instead (.ci/run installs the package).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { EXIT_UNREADABLE_ROWS } from '../../../../src/contract/exit-codes.ts';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { runCli } from '../../../helpers/cli.ts';
import { countUnlike, countUnlikeAll, decodePng } from '../../../helpers/png.ts';
import { INJECTIONS, drawnCountries, expectedCounts, searchLines, type Expected } from './fixtures.ts';

const CHROMIUM = process.env.ADDRFLOW_CHROMIUM ?? '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const present = existsSync(CHROMIUM);
const inCi = process.env.CI === 'true';

if (!present && !inCi) {
  // Loud: the reason is in the suite's title and on stderr.
  process.stderr.write(`browser.test.ts: SKIPPED — no Chromium at ${CHROMIUM} (apt-get install chromium)\n`);
}

if (!present && inCi) {
  describe('the job report in headless Chromium', () => {
    it('needs Chromium: CI=true fails instead of skipping', () => {
      expect.fail(`no Chromium at ${CHROMIUM}: .ci/run installs Debian's chromium package`);
    });
  });
}

const suite = present ? describe : describe.skip;

suite(`the job report in headless Chromium${present ? '' : ` — SKIPPED: no Chromium at ${CHROMIUM} (apt-get install chromium)`}`, () => {
  let dir: string;
  let ctx: BrowserContext;
  let page: Page;
  let expected: Expected;
  let reportUrl: string;
  const requests: string[] = [];
  const dialogs: string[] = [];
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'addrflow-browser-'));
    const input = searchLines(4000);
    const inputPath = join(dir, 'search.ndjson');
    writeFileSync(inputPath, input.join('\n') + '\n');
    const out = join(dir, 'search.out');
    const report = join(dir, 'report.html');
    const r = await runCli(['run', '--op', 'search', '--input', inputPath, '--output', out, '--report', report, '--report-rows', '40', '--progress', 'off']);
    expect(r.code, r.stderr).toBe(EXIT_UNREADABLE_ROWS); // [unreadable] searchLines has lines that are not JSON: exit 9
    expected = expectedCounts(input, readFileSync(out, 'utf8').trimEnd().split('\n'));
    reportUrl = pathToFileURL(report).href;

    ctx = await chromium.launchPersistentContext(mkdtempSync(join(dir, 'profile-')), {
      executablePath: CHROMIUM, headless: true, args: FLAGS, viewport: { width: 1100, height: 900 },
    });
    ctx.on('request', (req) => requests.push(req.url()));
    page = await ctx.newPage();
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    await page.goto(reportUrl, { waitUntil: 'load' });
  }, 120_000);

  afterAll(async () => {
    await ctx?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('renders offline: the only request is the file itself, and no console error', () => {
    expect(requests).toEqual([reportUrl]);
    expect(consoleErrors).toEqual([]);
  });

  it('draws something: a screenshot of the page and of its map is not blank', async () => {
    const shot = decodePng(await page.screenshot({ fullPage: true }));
    expect(shot.height).toBeGreaterThan(1500);
    const area = shot.width * shot.height;
    // Cards (white) on the page's background, and ink (text, bars, map) on both.
    expect(countUnlike(shot, [0xf8, 0xfa, 0xfc], 3) / area).toBeGreaterThan(0.3);
    expect(countUnlikeAll(shot, [[0xf8, 0xfa, 0xfc], [0xff, 0xff, 0xff]]) / area).toBeGreaterThan(0.05);
    const map = decodePng(await page.locator('#map').screenshot());
    const mapArea = map.width * map.height;
    expect(countUnlike(map, [0xe0, 0xf2, 0xfe], 6) / mapArea).toBeGreaterThan(0.1); // land, not only sea
    // The answered cells (orange to dark red) are neither sea, land nor border.
    const cells = countUnlikeAll(map, [[0xe0, 0xf2, 0xfe], [0xf1, 0xf5, 0xf9], [0x94, 0xa3, 0xb8]], 40);
    expect(cells).toBeGreaterThan(50);
  });

  it('draws the counts of the job', async () => {
    const texts = await page.$$eval('text.count', (els) => els.map((e) => [e.getAttribute('data-chart'), e.getAttribute('data-key'), e.textContent]));
    const charts: Record<string, Record<string, number>> = {};
    for (const [chart, key, text] of texts) (charts[chart!] ??= {})[key!] = Number(text!.replaceAll(',', ''));
    expect(charts.codes).toEqual(expected.codes);
    expect(charts.matchlevels).toEqual(expected.matchlevels);
    expect(charts.relevance).toEqual(expected.relevance);
    expect(charts.countries).toEqual(drawnCountries(expected.countries));
    const tile = (k: string) => page.locator(`[data-tile="${k}"]`).textContent();
    expect(await tile('records')).toBe(expected.records.toLocaleString('en'));
    expect(await tile('processed')).toBe(expected.processed.toLocaleString('en'));
    expect(await tile('rejected')).toBe(expected.rejected.toLocaleString('en'));
    expect(await tile('answered')).toBe(expected.answered.toLocaleString('en'));
    expect(await page.locator('#rows tbody tr').count()).toBe(40);
    expect(await page.locator('#rejected-rows tbody tr').count()).toBe(10);
  });

  it('shows hostile input values as text: no element, script or dialog comes from the data', async () => {
    expect(dialogs).toEqual([]);
    expect(await page.locator('script, img, iframe, object, embed, foreignObject').count()).toBe(0);
    const withHandlers = await page.$$eval('*', (els) => els.filter((e) => [...e.attributes].some((a) => a.name.startsWith('on'))).length);
    expect(withHandlers).toBe(0);
    const text = await page.locator('main').textContent();
    const shown = INJECTIONS.filter((v) => text!.includes(v));
    expect(shown.length).toBeGreaterThan(0); // the hostile rows are listed, verbatim, as text
  });
});
