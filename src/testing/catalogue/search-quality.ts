// Requests a user would make of the product's own tools, in their words, with the tool that should rank first for each.

/** A request in natural language and the tool (of src/modules) that answers it. */
interface SearchQualityCase {
  query: string;
  expected: string;
}

/**
 * What people ask of the board, its users, media, text and math, phrased as they do (cards, columns, people, a
 * picture…) rather than as the tools' summaries are: asked against the 1,000-procedure catalogue, whose project
 * tasks, employees, teams, media library, blog and podcast feeds compete for the same words.
 */
export const SEARCH_QUALITY_CASES: readonly SearchQualityCase[] = [
  { query: 'add a new card to the board for fixing the login bug', expected: 'TaskController_createTask' },
  { query: 'put a to-do on the board: write the release notes, for user 4', expected: 'TaskController_createTask' },
  { query: 'load a bunch of cards from this csv text', expected: 'TaskController_importTasks' },
  {
    query: 'bulk create tasks from the spreadsheet at https://example.com/backlog.csv',
    expected: 'TaskController_importTasks',
  },
  { query: 'which cards are still in progress', expected: 'TaskController_listTasks' },
  { query: 'what is in the to do column', expected: 'TaskController_listTasks' },
  { query: 'show me everything assigned to user 2 on the board', expected: 'TaskController_listTasks' },
  { query: 'what does task 15 say', expected: 'TaskController_getTask' },
  { query: 'which task numbers start with 12, or have groceries in the title', expected: 'TaskController_completeTaskId' },
  { query: 'drag task 9 over to done', expected: 'TaskController_moveTask' },
  { query: 'put card 4 at the top of the in progress column', expected: 'TaskController_moveTask' },
  { query: 'rename task 8 to "Ship the beta"', expected: 'TaskController_updateTask' },
  { query: 'give card 6 to user 3 instead', expected: 'TaskController_updateTask' },
  { query: 'nobody should own task 5 any more', expected: 'TaskController_updateTask' },
  { query: 'get rid of task 21, we will not do it', expected: 'TaskController_deleteTask' },
  { query: 'what is on the board right now', expected: 'BoardController_getBoard' },
  { query: 'the whole kanban: every column with its cards and the people', expected: 'BoardController_getBoard' },
  { query: 'who is user 7', expected: 'UserController_getUser' },
  { query: 'who are all the users of the gateway', expected: 'UserController_listUsers' },
  { query: 'add Margaret Hamilton as a new user, margaret@example.com', expected: 'UserController_createUser' },
  { query: 'change the email address of user 4 to bob@newco.example', expected: 'UserController_updateUser' },
  { query: 'make user 3 an admin', expected: 'UserController_updateUser' },
  { query: 'remove user 12 from the gateway, they left', expected: 'UserController_deleteUser' },
  { query: 'send me the sample png picture', expected: 'MediaController_getImage' },
  { query: 'play the recorded hello as an mp3', expected: 'MediaController_getAudio' },
  { query: 'fetch the sound file at https://cdn.example.com/intro.mp3', expected: 'MediaController_getAudioFromURL' },
  {
    query: 'a jpeg photo meant to be shown to the person, not the model',
    expected: 'AnnotatedController_getAnnotatedImage',
  },
  { query: 'just say hello world in plain text', expected: 'TextController_getGreeting' },
  { query: 'what is new with the gateway, as rss', expected: 'TextController_getFeed' },
  { query: 'what is 17 plus 25', expected: 'sum_numbers' },
  { query: 'the sum of 3.5 and 4.25', expected: 'sum_numbers' },
];
