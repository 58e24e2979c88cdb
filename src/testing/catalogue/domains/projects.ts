// Catalogue domains of project work: project tasks, projects, sprints, issues, milestones and time tracking.
import { verb, type Domain } from '../spec';

export const ProjectTask: Domain = {
  key: 'ProjectTask',
  about:
    'the work items of client projects, each with an assignee, a due date, an estimate and a stage on the project board',
  statuses: ['backlog', 'todo', 'in_progress', 'in_review', 'done'],
  fields: {
    projectId: 'id The project it belongs to',
    title: 'string What has to be done, e.g. Draft the kickoff agenda',
    description: 'text? Details',
    assigneeId: 'id? The user doing it',
    dueDate: 'date? When it is due',
    priority: 'enum(low|medium|high)? How important',
    estimateHours: 'number? Estimated effort in hours, e.g. 4',
  },
  filters: {
    projectId: 'id? Only this project’s tasks',
    assigneeId: 'id? Only the tasks of this user',
    dueBefore: 'date? Only the tasks due before this day',
  },
  assignee: 'assigneeId',
  toolsets: ['projects'],
  verbs: [
    verb(
      'put {id}/move',
      'Move project task',
      'Moves the task to another stage of its project board (backlog, to do, in progress, in review, done) and a place in it.',
      {
        body: { status: 'status The stage', position: 'int? 0-based place in it (default: the bottom)' },
      },
    ),
    verb('post {id}/complete', 'Complete project task', 'Marks the task done and logs the time spent, if given.', {
      body: { hoursSpent: 'number? Time it took' },
      sets: { status: 'done' },
    }),
    verb('post {id}/subtasks', 'Add subtask', 'Adds a checklist item under the task.', {
      body: { title: 'string What has to be done', assigneeId: 'id? Who does it' },
      output: {
        subtaskId: 'id The subtask',
        projectTaskId: 'id The task',
        title: 'string What has to be done',
        done: 'bool Whether it is checked',
      },
      additive: true,
    }),
    verb('put {id}/due-date', 'Change task due date', 'Sets a new due date; the assignee and followers are told.', {
      body: { dueDate: 'date The new due date' },
    }),
    verb(
      'post {id}/dependencies',
      'Add task dependency',
      'Records that the task cannot start before another one is done.',
      {
        body: { blockedByTaskId: 'id The task it waits for' },
        output: { projectTaskId: 'id The task', blockedByTaskIds: 'id[] Everything it waits for' },
      },
    ),
    verb(
      'get overdue',
      'List overdue project tasks',
      'Returns the tasks past their due date and not done, across projects, the most overdue first.',
      {
        query: { assigneeId: 'id? Only this user’s', projectId: 'id? Only this project’s' },
        sets: { status: 'in_progress' },
      },
    ),
    verb(
      'post import',
      'Import project tasks from spreadsheet',
      'Adds many tasks to a project from CSV text or a Google Sheets link (columns title, assignee email, due date, estimate).',
      {
        body: {
          projectId: 'id The project',
          csv: 'text? The tasks as CSV',
          sheetUrl: 'url? A shared Google Sheets link instead',
        },
        output: { imported: 'int How many tasks were added', ids: 'id[] The new tasks' },
        additive: true,
      },
    ),
  ],
};

export const Project: Domain = {
  key: 'Project',
  about: 'client and internal projects with an owner, dates, members and a board of project tasks',
  statuses: ['planned', 'active', 'on_hold', 'completed', 'cancelled'],
  fields: {
    name: 'string Name, e.g. Website relaunch',
    description: 'text? What it is for',
    ownerId: 'id The project manager (a user)',
    clientAccountId: 'id? The client (an account), for client work',
    startDate: 'date? Start',
    dueDate: 'date? Deadline',
  },
  filters: { ownerId: 'id? Only this manager’s projects', clientAccountId: 'id? Only this client’s' },
  assignee: 'ownerId',
  toolsets: ['projects'],
  verbs: [
    verb('post {id}/members', 'Add project member', 'Gives a user access to the project, as owner, editor or viewer.', {
      body: { userId: 'id The user', role: 'enum(owner|editor|viewer) What they may do' },
      output: {
        projectId: 'id The project',
        userId: 'id The user',
        role: 'enum(owner|editor|viewer) What they may do',
      },
      additive: true,
    }),
    verb(
      'del {id}/members/{userId}',
      'Remove project member',
      'Takes a user off the project; their tasks stay, unassigned.',
      {
        params: { userId: 'id The user to remove' },
      },
    ),
    verb(
      'get {id}/status-report',
      'Get project status report',
      'Sums up where the project stands: health, percent complete, open and overdue tasks, and the next milestone.',
      {
        output: {
          projectId: 'id The project',
          health: 'enum(on_track|at_risk|off_track) Overall health',
          percentComplete: 'percent Share of tasks done',
          openTasks: 'int Tasks not done',
          overdueTasks: 'int Tasks past due',
          summary: 'text A paragraph for the steering committee',
        },
        toolsets: ['reporting'],
      },
    ),
    verb(
      'get {id}/board',
      'Get project board',
      'Returns the project’s board: its stages as columns, each with its task cards in order.',
      {
        output: {
          projectId: 'id The project',
          columns: [
            'The stages, in order',
            { stage: 'enum(backlog|todo|in_progress|in_review|done) The stage', taskIds: 'id[] Its cards, top first' },
          ],
        },
      },
    ),
    verb(
      'post {id}/complete',
      'Complete project',
      'Closes the project once its work is delivered; open tasks are listed in the answer.',
      { sets: { status: 'completed' } },
    ),
    verb('post {id}/hold', 'Put project on hold', 'Pauses the project; its tasks stop showing as overdue.', {
      body: { reason: 'string? Why' },
      sets: { status: 'on_hold' },
    }),
  ],
};

export const Sprint: Domain = {
  key: 'Sprint',
  about: 'the short iterations (usually two weeks) a team plans its work in, each with a goal and a board',
  statuses: ['planned', 'active', 'completed'],
  fields: {
    projectId: 'id The project',
    name: 'string Name, e.g. Sprint 42',
    startDate: 'date First day',
    endDate: 'date Last day',
    goal: 'text? What the team wants to reach',
  },
  filters: { projectId: 'id? Only this project’s sprints' },
  toolsets: ['projects'],
  verbs: [
    verb('post {id}/start', 'Start sprint', 'Starts the sprint: its tasks become the team’s current work.', {
      sets: { status: 'active' },
    }),
    verb(
      'post {id}/complete',
      'Complete sprint',
      'Ends the sprint and moves its unfinished tasks to the backlog or the next sprint.',
      {
        body: { moveOpenTasksTo: 'enum(backlog|next_sprint) Where unfinished tasks go' },
        sets: { status: 'completed' },
      },
    ),
    verb(
      'get {id}/board',
      'Get sprint board',
      'Returns the sprint’s board: columns to do, in progress, in review and done, with their cards.',
      {
        output: {
          sprintId: 'id The sprint',
          columns: [
            'The columns',
            { stage: 'enum(todo|in_progress|in_review|done) The column', taskIds: 'id[] Its cards, top first' },
          ],
        },
      },
    ),
    verb('post {id}/tasks', 'Add task to sprint', 'Pulls a project task from the backlog into the sprint.', {
      body: { projectTaskId: 'id The task' },
      output: { sprintId: 'id The sprint', projectTaskIds: 'id[] The tasks of the sprint now' },
      additive: true,
    }),
    verb(
      'del {id}/tasks/{projectTaskId}',
      'Remove task from sprint',
      'Sends a task of the sprint back to the backlog.',
      {
        params: { projectTaskId: 'id The task' },
      },
    ),
    verb(
      'get {id}/burndown',
      'Get sprint burndown',
      'Returns the work left each day of the sprint, against the ideal line.',
      {
        output: {
          sprintId: 'id The sprint',
          days: [
            'One entry a day',
            { date: 'date The day', remainingHours: 'number Work left', idealHours: 'number Work that should be left' },
          ],
        },
        toolsets: ['reporting'],
      },
    ),
  ],
};

export const Issue: Domain = {
  key: 'Issue',
  about: 'bugs and defects reported against a product, with their severity, labels and who fixes them',
  statuses: ['open', 'triaged', 'in_progress', 'resolved', 'closed', 'wont_fix'],
  fields: {
    title: 'string What goes wrong, e.g. Checkout button does nothing on Safari',
    description: 'text Steps to reproduce, what was expected, what happened',
    projectId: 'id The project',
    reporterId: 'id Who reported it',
    assigneeId: 'id? The developer fixing it',
    severity: 'enum(minor|major|critical|blocker) How bad',
    labels: 'string[]? Labels, e.g. frontend',
  },
  filters: {
    projectId: 'id? Only this project’s issues',
    assigneeId: 'id? Only this developer’s',
    severity: 'enum(minor|major|critical|blocker)? Only this severity',
  },
  assignee: 'assigneeId',
  toolsets: ['projects'],
  verbs: [
    verb(
      'post {id}/triage',
      'Triage issue',
      'Confirms the bug, sets its severity and labels, and puts it in the queue to fix.',
      {
        body: { severity: 'enum(minor|major|critical|blocker) How bad', labels: 'string[]? Labels' },
        sets: { status: 'triaged' },
      },
    ),
    verb('post {id}/resolve', 'Resolve issue', 'Marks the bug fixed, with the version or commit that fixes it.', {
      body: { resolution: 'text How it was fixed', fixedIn: 'string? Version or commit, e.g. 4.2.1' },
      sets: { status: 'resolved' },
    }),
    verb('post {id}/reopen', 'Reopen issue', 'Opens the bug again when it comes back.', {
      body: { comment: 'text? What was seen' },
      sets: { status: 'open' },
    }),
    verb('post {id}/links', 'Link issues', 'Records that the issue blocks, duplicates or relates to another one.', {
      body: { otherIssueId: 'id The other issue', kind: 'enum(blocks|duplicates|relates_to) How they relate' },
      output: {
        issueId: 'id The issue',
        otherIssueId: 'id The other issue',
        kind: 'enum(blocks|duplicates|relates_to) How they relate',
      },
      additive: true,
    }),
    verb(
      'post {id}/convert',
      'Convert issue to project task',
      'Makes a task on the project board from the issue, linked to it.',
      {
        output: { issueId: 'id The issue', projectTaskId: 'id The new task' },
      },
    ),
    verb(
      'get by-label/{label}',
      'List issues by label',
      'Returns the open issues that carry a label, the most severe first.',
      {
        params: { label: 'string The label, e.g. login' },
        output: 'list',
      },
    ),
    verb('post {id}/votes', 'Vote for issue', 'Adds a user’s vote, so that bugs hitting many people are fixed first.', {
      body: { userId: 'id The user voting' },
      output: { issueId: 'id The issue', votes: 'int Votes it has now' },
      additive: true,
    }),
  ],
};

export const Milestone: Domain = {
  key: 'Milestone',
  about: 'the key dates of a project (a release, a handover, a sign-off) and the tasks that lead to them',
  statuses: ['upcoming', 'reached', 'missed'],
  fields: {
    projectId: 'id The project',
    name: 'string Name, e.g. Beta release',
    dueDate: 'date When it should be reached',
    description: 'text? What it means',
  },
  filters: { projectId: 'id? Only this project’s milestones' },
  toolsets: ['projects'],
  verbs: [
    verb('post {id}/reach', 'Mark milestone reached', 'Records that the milestone was reached, on today’s date.', {
      sets: { status: 'reached' },
    }),
    verb(
      'put {id}/due-date',
      'Move milestone date',
      'Moves the milestone to another date; the project owner and members are told.',
      {
        body: { dueDate: 'date The new date', reason: 'string? Why it moves' },
      },
    ),
    verb(
      'get {id}/tasks',
      'List milestone tasks',
      'Returns the tasks that lead to the milestone, with how many are done.',
      {
        output: {
          milestoneId: 'id The milestone',
          done: 'int Tasks done',
          open: 'int Tasks not done',
          projectTaskIds: 'id[] The tasks',
        },
      },
    ),
    verb(
      'get upcoming',
      'List upcoming milestones',
      'Returns the milestones of the coming days across projects, soonest first.',
      {
        query: { withinDays: 'int(1..365)? How many days ahead (default 30)' },
        sets: { status: 'upcoming' },
      },
    ),
    verb('post {id}/tasks', 'Link task to milestone', 'Makes a task one of those that lead to the milestone.', {
      body: { projectTaskId: 'id The task' },
      output: { milestoneId: 'id The milestone', projectTaskIds: 'id[] Its tasks now' },
      additive: true,
    }),
  ],
};

export const TimeEntry: Domain = {
  key: 'TimeEntry',
  plural: 'time entries',
  about: 'hours people spend on projects and tasks, tracked with a timer or entered by hand, billable or not',
  statuses: ['running', 'stopped', 'approved', 'billed'],
  fields: {
    userId: 'id Who worked',
    projectId: 'id The project',
    projectTaskId: 'id? The task',
    startedAt: 'datetime When the work started',
    minutes: 'int? How long, in minutes (none while the timer runs)',
    note: 'string? What was done',
    billable: 'bool? Billed to the client (default true)',
  },
  filters: { userId: 'id? Only this person’s time', projectId: 'id? Only this project’s' },
  toolsets: ['projects'],
  verbs: [
    verb(
      'post start',
      'Start timer',
      'Starts tracking time now on a project or task; a timer already running is stopped first.',
      {
        body: { projectId: 'id The project', projectTaskId: 'id? The task', note: 'string? What you work on' },
        sets: { status: 'running' },
      },
    ),
    verb('post {id}/stop', 'Stop timer', 'Stops a running timer; the time entry keeps its length.', {
      sets: { status: 'stopped' },
    }),
    verb('get unbilled', 'List unbilled time', 'Returns the billable time not billed yet, for a project or a client.', {
      query: { projectId: 'id? Only this project’s', clientAccountId: 'id? Only this client’s' },
      sets: { status: 'approved' },
    }),
    verb('post approve', 'Approve time entries', 'Approves many time entries at once, so they can be billed.', {
      body: { ids: 'id[] The time entries' },
      output: { approved: 'int How many were approved', ids: 'id[] The time entries approved' },
    }),
    verb(
      'post bill',
      'Bill time to client',
      'Puts approved time on an invoice for the client (a new draft unless one is given).',
      {
        body: { ids: 'id[] The time entries', invoiceId: 'id? An existing draft invoice' },
        output: { invoiceId: 'id The invoice', minutes: 'int Time billed', amount: 'money What it comes to' },
        toolsets: ['billing'],
      },
    ),
    verb('get report', 'Get time report', 'Sums the time of a period by person, project or task.', {
      query: { from: 'date First day', to: 'date Last day', groupBy: 'enum(user|project|task) How to group' },
      output: {
        rows: [
          'The totals',
          { key: 'string The person, project or task', minutes: 'int Time', billableMinutes: 'int Of which billable' },
        ],
      },
      toolsets: ['reporting'],
    }),
  ],
};
