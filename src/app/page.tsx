// Home page: where the gateway's two doors are.
export default function HomePage() {
  return (
    <main style={{ maxWidth: 720, margin: '2rem auto', padding: '0 1rem' }}>
      <h1>Vovk MCP gateway</h1>
      <p>
        The live task board: <a href="/board">/board</a>.
      </p>
      <p>
        MCP endpoint: <code>/api/mcp</code>. REST routes: <a href="/api/users">/api/users</a>,{' '}
        <a href="/api/users/1">/api/users/1</a>, <a href="/api/tasks">/api/tasks</a>,{' '}
        <a href="/api/board">/api/board</a>, <a href="/api/media/image">/api/media/image</a>,{' '}
        <a href="/api/media/audio">/api/media/audio</a>, <a href="/api/text/greeting">/api/text/greeting</a>,{' '}
        <a href="/api/text/feed">/api/text/feed</a>, <a href="/api/annotated/annotated-image">/api/annotated/annotated-image</a>.
      </p>
    </main>
  );
}
