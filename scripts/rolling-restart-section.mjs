// RELIABILITY.md's sections on draining: the fresh-connection SIGTERM (e2e/shutdown.spec.ts) and the rolling restart
// behind nginx (e2e/rolling-restart.spec.ts), from the figures those specs write; scripts/soak.mjs puts them in.

const f0 = (value) => Math.round(value).toLocaleString('en');
const counts = (tally) => Object.entries(tally).map(([label, count]) => `${f0(count)} × ${label}`).join(', ');

/** Markdown lines for the fresh-connection figures (undefined: not run). */
export function freshConnectionsLines(fresh) {
  if (!fresh) return [];
  return [
    `SIGTERM while ${fresh.clients} clients each open a new connection per request (no keep-alive) and keep sending for ${f0(fresh.sendAfterSignalMs)} ms after the signal: ${f0(fresh.requests)} requests, ${counts(fresh.outcomes)}, **${fresh.resets} reset**, 0 refused; exit ${f0(fresh.shutdownMs)} ms after the signal (the listening socket closes once no new connection came for 500 ms). When this drain was written, the previous one (the listening socket closed as soon as the requests in flight were answered) reset 16 and refused 4,200 requests of such a run (2026-12-01). Measured ${fresh.measuredAt}.`,
    '',
  ];
}

/** Markdown lines of the rolling-restart section (undefined figures: not run). */
export function rollingRestartLines(rolling) {
  const lines = ['## Rolling restart behind nginx (`e2e/rolling-restart.spec.ts`)', ''];
  if (!rolling) return [...lines, 'Not run: no figures in test-reports/reliability.', ''];
  const doors = counts(rolling.byDoor);
  return [
    ...lines,
    `Debian's nginx (\`deploy/nginx.conf\`) in front of three instances on one PostgreSQL; each instance in turn gets SIGTERM, exits and starts again while the load runs (${f0(rolling.runMs)} ms in all). Load: REST reads and writes (create + move), MCP 2026-07-28 \`tools/call\` (create, list), confirmations (deleteTask → \`input_required\` → retry with the answer), a 2025-era session (SDK v1 client) deleting with an elicitation, 2 board streams reopened whenever they end, long tasks (\`countSlowly\`, Tasks extension, polled with \`tasks/get\`). A client sends a request once more after a 503, after its \`Retry-After\`.`,
    '',
    '| What | Result |',
    '| --- | --- |',
    `| Restarts | ${rolling.restarts.map((r) => `instance ${r.instance}: drained in ${f0(r.drainMs)} ms, listening again ${f0(r.startMs)} ms later`).join('; ')} |`,
    `| Requests (as the clients count them) | ${f0(rolling.requests)}: ${doors} |`,
    `| Connection resets / 502 / 504 | **${rolling.resets} / ${rolling.badGateway} / 0** |`,
    `| 503 seen by clients | ${rolling.refused503}, each with \`Retry-After\` and refused before any work; ${rolling.retried} retried once, all then served |`,
    `| Handled by nginx itself | ${rolling.sentElsewhereByNginx} requests sent to another instance (refused connection, or a GET answered 503: ${rolling.refusalsAbsorbedByNginx}) |`,
    `| Longest pause a client saw | ${f0(rolling.longestPauseMs)} ms (a 503, the 1 s \`Retry-After\`, the retry) |`,
    `| Acknowledged writes | ${f0(rolling.acknowledgedWrites)}, each in the database exactly once |`,
    `| Confirmations | ${rolling.confirmations}, ${rolling.confirmationsAcrossInstances} with their two requests on different instances; every confirmed task deleted |`,
    `| 2025-era sessions | ${rolling.sessions.started} started, ${rolling.sessions.endedWith404} ended with 404 after their instance restarted (the client started a new one), ${rolling.sessions.closedUnderACall} closed under a call; ${rolling.sessions.confirmedDeletes} deletes confirmed over them |`,
    `| Board streams | ${rolling.boardStreams.map((s) => `opened ${s.opened}×, ${s.reconnectLines} reconnect line(s)`).join('; ')}; both show the final board |`,
    `| Long tasks | ${counts(rolling.longTasks)} (a task whose instance shuts down ends failed "the instance shut down") |`,
    '',
    `Measured ${rolling.measuredAt}. A drain lasts up to ~4 s: the instance waits for nginx to close its idle upstream connections (\`keepalive_timeout 4s\`) rather than cut one a request may be on.`,
    '',
  ];
}
