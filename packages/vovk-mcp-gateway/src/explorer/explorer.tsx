'use client';
// The tool explorer: the gateway's tools as its own MCP endpoint lists them, by toolset and searchable, runnable from
// forms, or several in one program from the code console (the questions their calls ask are put to the user); its
// resources, listed and read; how to connect (at the public origin the server names, else this page's), with the
// toolsets a client may choose; the handlers that are not tools, and why.
import { useMemo, useState } from 'react';
import { SessionBadge, SignInPanel } from './oauth-session.js';
import { isUnauthorized } from '../browser/token.js';
import { MCP_PATH } from '../browser/explorer/gateway-client.js';
import { toolsetSizes } from '../browser/explorer/toolsets.js';
import { CodeConsole } from './code-console.js';
import { ConnectPanel } from './connect-panel.js';
import styles from './explorer.module.css';
import { type LeftOutHandler, LeftOutList } from './left-out-list.js';
import { QuestionDialog } from './question-dialog.js';
import { ResourcesView } from './resources-view.js';
import { ToolList } from './tool-list.js';
import { useGateway, useOrigin } from './use-gateway.js';
import { ViewTabs } from './view-tabs.js';

interface ExplorerProps {
  /**
   * Where clients reach the gateway, when the server knows it (GATEWAY_PUBLIC_ORIGIN, or a trusted proxy's forwarded
   * headers); the URLs shown point there. The page itself talks to the gateway on its own origin.
   */
  publicOrigin?: string;
  /**
   * The handlers the server does not serve as MCP tools, with why (shown above the tools; nothing when none): on the
   * server, `leftOutProcedures({ controllers })` from `vovk-mcp-gateway`.
   * @default none shown
   */
  leftOut?: readonly LeftOutHandler[];
  /**
   * The app's own pages worth a link under the title (its REST reference, a dashboard…), as label and path.
   * @default none
   */
  links?: ReadonlyArray<{ label: string; href: string }>;
}

export function Explorer({ publicOrigin, leftOut = [], links = [] }: ExplorerProps) {
  const origin = useOrigin();
  const { state, calls, retry, question } = useGateway(origin);
  const shownOrigin = publicOrigin ?? origin;
  const endpoint = shownOrigin ? new URL(MCP_PATH, shownOrigin).href : MCP_PATH;
  const toolsets = useMemo(() => (state.status === 'ready' ? toolsetSizes(state.tools) : []), [state]);
  const [view, setView] = useState('tools');
  const views = [
    {
      id: 'tools',
      label: 'Tools',
      content: (
        <>
          <LeftOutList handlers={leftOut} />
          <ToolList state={state} origin={shownOrigin} calls={calls} retry={retry} />
        </>
      ),
    },
    {
      id: 'code',
      label: 'Code console',
      content:
        state.status === 'ready' ? (
          <CodeConsole tools={state.tools} gateway={calls} />
        ) : (
          <p className={styles.muted}>Programs run here once the explorer has listed the tools.</p>
        ),
    },
    {
      id: 'resources',
      label: 'Resources',
      content:
        state.status === 'ready' ? (
          <ResourcesView access={calls.resources} shown={view === 'resources'} />
        ) : (
          <p className={styles.muted}>The resources are listed here once the explorer is connected.</p>
        ),
    },
  ];
  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <div className={styles.titleRow}>
          <h1 className={styles.title}>Vovk MCP gateway</h1>
          <SessionBadge className={styles.session} onSignedOut={retry} />
        </div>
        <p className={styles.subtitle}>
          Tool explorer: every tool of <code>{endpoint}</code>, listed and run over MCP, with its REST route beside it,
          or several at once in a program from the code console.
          {links.map(({ label, href }, index) => (
            <span key={href}>
              {index ? '; ' : ' '}
              {label}: <a href={href}>{href}</a>
              {index === links.length - 1 ? '.' : ''}
            </span>
          ))}
        </p>
      </header>
      <div className={styles.layout}>
        <main className={styles.main}>
          {state.status === 'failed' && isUnauthorized(state.error) && <SignInPanel onTokenSaved={retry} />}
          <ViewTabs views={views} current={view} onSelect={setView} />
        </main>
        <aside className={styles.aside}>
          <ConnectPanel endpoint={endpoint} toolsets={toolsets} />
        </aside>
      </div>
      {question && <QuestionDialog key={question.id} pending={question} />}
    </div>
  );
}
