// Held-out requests for the tool search, written without seeing the search or the tuning set: checks for overfitting.

/** A request in natural language and the product tool that answers it. */
interface HeldOutSearchCase {
  query: string;
  expected: string;
}

/**
 * Requests written blind, after the tuning set, by someone who read only the product's controllers and schemas (not
 * the search engine, not the tuning set, not the generated catalogue): each names the one tool that should rank first.
 */
export const HELD_OUT_SEARCH_CASES: readonly HeldOutSearchCase[] = [
  // Tasks: the cards of the board.
  { query: 'add a task "Write release notes for v2.3" to the to-do column', expected: 'TaskController_createTask' },
  {
    query: 'can you make a new card called Fix login redirect and give it to user 4? thanks!',
    expected: 'TaskController_createTask',
  },
  { query: 'new todo for me: order coffee beans for the office', expected: 'TaskController_createTask' },
  { query: 'move task 12 to done', expected: 'TaskController_moveTask' },
  {
    query: 'I just started on card #8, could you drag it over to in progress and put it at the top of that column',
    expected: 'TaskController_moveTask',
  },
  { query: 'put card 5 back in To do, second from the top', expected: 'TaskController_moveTask' },
  { query: 'which tasks are assinged to user 3?', expected: 'TaskController_listTasks' },
  { query: 'list everything thats still in progress', expected: 'TaskController_listTasks' },
  { query: 'pull up the details of task 42', expected: 'TaskController_getTask' },
  { query: 'rename task 9 to "Migrate database to Postgres 16"', expected: 'TaskController_updateTask' },
  {
    query: 'Alice is swamped, hand task 17 to user 2 instead and change its description to say it is due Friday',
    expected: 'TaskController_updateTask',
  },
  { query: 'delete taks 31, it was a duplicate', expected: 'TaskController_deleteTask' },
  {
    query: 'get rid of the card "Old onboarding checklist" (id 6), we dont need it anymore',
    expected: 'TaskController_deleteTask',
  },
  {
    query: 'got a spreadsheet of ~200 tasks (title, status, assigneeId), can you bulk load them all onto the board?',
    expected: 'TaskController_importTasks',
  },
  // The board as a whole.
  { query: 'board?', expected: 'BoardController_getBoard' },
  {
    query: 'give me an overview of our kanban: every column, the cards in each, and who is on the team',
    expected: 'BoardController_getBoard',
  },
  // Users.
  { query: 'who are all the people in this workspace?', expected: 'UserController_listUsers' },
  { query: 'show me the team members with their emails and roles', expected: 'UserController_listUsers' },
  { query: 'look up user 7 for me, what is their email?', expected: 'UserController_getUser' },
  { query: 'add Grace Hopper (grace@navy.mil) as a new admin', expected: 'UserController_createUser' },
  {
    query: 'onboard a new member, Alan Turing, alan.turing@example.com, so I can start assigning him work',
    expected: 'UserController_createUser',
  },
  { query: 'promote user 5 to admin', expected: 'UserController_updateUser' },
  { query: 'Bob (user 11) left the company, please remove his account', expected: 'UserController_deleteUser' },
  // Media, text and the standalone tool.
  { query: 'show me the little png picture the app serves', expected: 'MediaController_getImage' },
  { query: 'download the short spoken hello clip as an mp3', expected: 'MediaController_getAudio' },
  {
    query: 'fetch the sound file at https://cdn.example.com/podcast/ep12.mp3 and give it to me',
    expected: 'MediaController_getAudioFromURL',
  },
  { query: 'just say hello world, plain text is fine', expected: 'TextController_getGreeting' },
  { query: 'any news? give me the rss', expected: 'TextController_getFeed' },
  { query: 'get me the annotated jpg photo', expected: 'AnnotatedController_getAnnotatedImage' },
  { query: 'whats 1234 plus 5678?', expected: 'sum_numbers' },
];
