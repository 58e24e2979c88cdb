// The REST routes opened in a real browser page (Debian chromium): JSON, image, audio and text.
import { expect, test } from '@playwright/test';

test('JSON routes render in the page', async ({ page }) => {
  await page.goto('/api/users/1');
  expect(JSON.parse(await page.locator('body').innerText())).toMatchObject({ id: 1, name: 'Ada Lovelace' });
  await page.goto('/api/users');
  expect(JSON.parse(await page.locator('body').innerText())).toHaveLength(3);
});

test('the text routes render their text', async ({ page }) => {
  const response = await page.goto('/api/text/greeting');
  expect(response?.headers()['content-type']).toContain('text/plain');
  await expect(page.locator('body')).toHaveText('Hello, world!');
  const feed = await page.goto('/api/text/feed');
  expect(feed?.headers()['content-type']).toContain('application/rss+xml');
});

test('the images decode in the browser', async ({ page }) => {
  await page.goto('/');
  const sizes = await page.evaluate(async () => {
    const load = (src: string) =>
      new Promise<[number, number]>((resolve, reject) => {
        const img = new Image();
        img.onload = () => resolve([img.naturalWidth, img.naturalHeight]);
        img.onerror = () => reject(new Error(`cannot decode ${src}`));
        img.src = src;
      });
    return Promise.all([load('/api/media/image'), load('/api/annotated/annotated-image')]);
  });
  expect(sizes).toEqual([
    [128, 96],
    [160, 120],
  ]);
});

test('the audio routes play in an <audio> element', async ({ page }) => {
  await page.goto('/');
  for (const src of ['/api/media/audio', '/api/media/from-url']) {
    const duration = await page.evaluate(
      (source) =>
        new Promise<number>((resolve, reject) => {
          const audio = new Audio();
          audio.onloadedmetadata = () => resolve(audio.duration);
          audio.onerror = () => reject(new Error(`cannot play ${source}: ${audio.error?.code}`));
          audio.src = source;
        }),
      src,
    );
    expect(duration, src).toBeGreaterThan(0.5);
  }
});
