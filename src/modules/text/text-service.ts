// The text bodies of the text module: a greeting and a small RSS feed built from the gateway's news items.
const NEWS = [
  { title: 'Gateway online', description: 'REST and MCP served from one set of Vovk controllers.', date: '2026-11-01T09:00:00Z' },
  { title: 'Spec-true formatter', description: 'Tool outputs follow the MCP formatting spec.', date: '2026-11-15T09:00:00Z' },
];

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);
}

export default class TextService {
  static greeting(): string {
    return 'Hello, world!';
  }

  static feed(): string {
    const items = NEWS.map(
      ({ title, description, date }) =>
        `<item><title>${escapeXml(title)}</title><description>${escapeXml(description)}</description>` +
        `<pubDate>${new Date(date).toUTCString()}</pubDate></item>`,
    ).join('');
    return (
      '<?xml version="1.0" encoding="UTF-8"?>' +
      '<rss version="2.0"><channel><title>Vovk MCP gateway</title><link>http://localhost/</link>' +
      `<description>News of the gateway</description>${items}</channel></rss>`
    );
  }
}
