// The questions the gateway asks the explorer's user during tool calls (elicitation): one at a time, in order.
import { useCallback, useRef, useState } from 'react';
import type { AskUser, ElicitResult, Question } from '../browser/explorer/gateway-client.js';

/** A question waiting for the user; `answer` settles it and takes it off the queue. */
export interface PendingQuestion {
  id: number;
  question: Question;
  /** The tool whose call asked, when that is known (the connection says, or only one call was running). */
  askedBy: string | undefined;
  answer(result: ElicitResult): void;
}

/**
 * `ask` queues a question and settles with the user's answer; a question whose call is given up is withdrawn (its
 * promise rejects with the reason). `current` is the question to show now. `askedBy` names the tool asking, if known,
 * when the connection does not.
 */
export function useQuestions(askedBy: () => string | undefined) {
  const [queue, setQueue] = useState<PendingQuestion[]>([]);
  const lastId = useRef(0);

  const ask = useCallback<AskUser>(
    (question, signal, asker) =>
      new Promise((resolve, reject) => {
        const id = ++lastId.current;
        const remove = () => setQueue((pending) => pending.filter((item) => item.id !== id));
        const withdraw = () => {
          remove();
          reject(signal.reason);
        };
        if (signal.aborted) return withdraw();
        signal.addEventListener('abort', withdraw, { once: true });
        const answer = (result: ElicitResult) => {
          signal.removeEventListener('abort', withdraw);
          remove();
          resolve(result);
        };
        setQueue((pending) => [...pending, { id, question, askedBy: asker ?? askedBy(), answer }]);
      }),
    [askedBy],
  );

  return { current: queue[0] as PendingQuestion | undefined, ask };
}
