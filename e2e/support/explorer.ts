// Playwright fixtures for the tool explorer page: a console-error guard on every test, and a page object.
import { expect, type Locator, type Page, test as base } from '@playwright/test';

/** Console errors and uncaught page errors seen during one test; the test fails on any it did not expect. */
export class ConsoleGuard {
  readonly seen: string[] = [];
  private readonly expected: RegExp[] = [];

  constructor(page: Page) {
    page.on('console', (message) => {
      if (message.type() === 'error') this.seen.push(`${message.text()} (${message.location().url})`);
    });
    page.on('pageerror', (error) => this.seen.push(`uncaught: ${error.message}`));
  }

  /** Declares an error the test provokes on purpose (e.g. the browser's log line of an aborted request). */
  expect(pattern: RegExp): void {
    this.expected.push(pattern);
  }

  unexpected(): string[] {
    return this.seen.filter((text) => !this.expected.some((pattern) => pattern.test(text)));
  }
}

/** Requests to the gateway's MCP endpoint, whatever their query (the explorer's own asks for `?tools=all`). */
export const isMcpEndpoint = (url: URL) => url.pathname === '/api/mcp';

export class ExplorerPage {
  constructor(readonly page: Page) {}

  /** Opens the explorer and waits until it has listed the tools. */
  async open(): Promise<void> {
    await this.page.goto('/');
    await expect(this.page.getByTestId('tool-card').first()).toBeVisible();
  }

  /** The names of the tools shown (filtered-out cards stay in the page, hidden). */
  names(): Locator {
    return this.page.getByTestId('tool-name').filter({ visible: true });
  }

  card(name: string): Locator {
    return this.page.getByTestId('tool-card').filter({ has: this.page.getByTestId('tool-name').getByText(name, { exact: true }) });
  }

  /** The section listing the handlers that are not MCP tools (absent when every handler is one). */
  leftOutSection(): Locator {
    return this.page.getByRole('region', { name: 'Not served as MCP tools' });
  }

  /** One handler of that section, by the tool name it would have had. */
  leftOut(name: string): Locator {
    const byName = this.page.getByTestId('left-out-name').getByText(name, { exact: true });
    return this.leftOutSection().getByTestId('left-out-handler').filter({ has: byName });
  }

  /** Fills the card's fields (by label). */
  async fill(name: string, fields: Record<string, string> = {}): Promise<Locator> {
    const card = this.card(name);
    for (const [label, value] of Object.entries(fields)) await card.getByLabel(label, { exact: true }).fill(value);
    return card;
  }

  /** Fills the card's fields (by label) and clicks Run; does not wait. */
  async submit(name: string, fields: Record<string, string> = {}): Promise<Locator> {
    const card = await this.fill(name, fields);
    await card.getByTestId('run-button').click();
    return card;
  }

  /** The question a running call asks the user (a modal dialog), named by its heading: which tool asks. */
  question(): Locator {
    return this.page.getByRole('dialog');
  }

  /** Opens the explorer on its code console (a tab beside the tools) and returns the console. */
  async openCodeConsole(): Promise<Locator> {
    await this.open();
    await this.page.getByRole('tab', { name: 'Code console' }).click();
    const codeConsole = this.page.getByRole('region', { name: 'Code console' });
    await expect(codeConsole.getByRole('heading', { name: 'Code console' })).toBeVisible();
    return codeConsole;
  }

  /** Writes `code` as the console's program and clicks Run; does not wait. */
  async runProgram(codeConsole: Locator, code: string): Promise<void> {
    await codeConsole.getByLabel('Program', { exact: true }).fill(code);
    await codeConsole.getByRole('button', { name: 'Run', exact: true }).click();
  }

  /** Runs a tool from its form and returns its finished result section. */
  async run(name: string, fields: Record<string, string> = {}): Promise<Locator> {
    const result = (await this.submit(name, fields)).getByTestId('result');
    await expect(result).toHaveAttribute('aria-busy', 'false');
    return result;
  }
}

export const test = base.extend<{ consoleGuard: ConsoleGuard; explorer: ExplorerPage }>({
  consoleGuard: [
    async ({ page }, use) => {
      const guard = new ConsoleGuard(page);
      await use(guard);
      expect(guard.unexpected(), 'console errors in the page').toEqual([]);
    },
    { auto: true },
  ],
  explorer: async ({ page }, use) => use(new ExplorerPage(page)),
});

export { expect };
