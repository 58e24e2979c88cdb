// Catalogue domains of running the company: reports, dashboards, metrics, teams, roles and incidents.
import { verb, type Domain } from '../spec';

export const Report: Domain = {
  key: 'Report',
  about: 'saved business reports (sales, billing, support, people) that can be run, scheduled and shared',
  statuses: ['draft', 'ready', 'scheduled'],
  fields: {
    name: 'string Name, e.g. Monthly revenue by region',
    source: 'enum(sales|billing|support|hr|web) The data it reads',
    definition: 'text? Columns, filters and grouping, as saved by the report builder',
    ownerId: 'id The user who made it',
  },
  filters: { source: 'enum(sales|billing|support|hr|web)? Only reports on this data', ownerId: 'id? Only this user’s' },
  toolsets: ['reporting'],
  verbs: [
    verb(
      'post {id}/run',
      'Run report',
      'Runs the report now on the latest data and returns its rows, or a link when it is large.',
      {
        body: { from: 'date? First day of the data', to: 'date? Last day of the data' },
        output: {
          reportId: 'id The report',
          rows: 'int Rows',
          generatedAt: 'datetime When',
          url: 'url Link to the full result',
        },
      },
    ),
    verb('post {id}/schedule', 'Schedule report email', 'Emails the report to people every day, week or month.', {
      body: { every: 'enum(day|week|month) How often', recipients: 'email[] Who gets it' },
      sets: { status: 'scheduled' },
    }),
    verb('get {id}/download', 'Download report', 'Returns the report’s last result as a CSV or Excel file.', {
      query: { format: 'enum(csv|xlsx)? File format (default csv)' },
      output: { reportId: 'id The report', format: 'enum(csv|xlsx) File format', url: 'url Download link' },
    }),
    verb(
      'get {id}/chart',
      'Get report chart',
      'Returns the report drawn as a chart image (PNG), e.g. to paste in a slide.',
      {
        query: { kind: 'enum(bar|line|pie)? Chart kind (default bar)' },
        output: {
          reportId: 'id The report',
          imageUrl: 'url The PNG image',
          width: 'int Width in pixels',
          height: 'int Height in pixels',
        },
        toolsets: ['media'],
      },
    ),
  ],
};

export const Team: Domain = {
  key: 'Team',
  about: 'the groups people work in (departments and squads), each with a lead and members',
  statuses: ['active', 'archived'],
  fields: {
    name: 'string Name, e.g. Platform engineering',
    description: 'text? What the team does',
    leadId: 'id? The team lead (a user)',
    parentTeamId: 'id? The team it is part of',
  },
  assignee: 'leadId',
  toolsets: ['admin', 'hr'],
  verbs: [
    verb(
      'post {id}/members',
      'Add team member',
      'Adds a user to the team; they see its projects, channels and calendar.',
      {
        body: { userId: 'id The user', role: 'enum(member|lead)? Their role (default member)' },
        output: { teamId: 'id The team', userId: 'id The user', role: 'enum(member|lead) Their role' },
        additive: true,
      },
    ),
    verb('del {id}/members/{userId}', 'Remove team member', 'Takes a user out of the team.', {
      params: { userId: 'id The user' },
    }),
    verb('get {id}/members', 'List team members', 'Returns the users of the team, the lead first.', {
      output: {
        items: ['The members', { userId: 'id The user', name: 'string Name', role: 'enum(member|lead) Their role' }],
      },
    }),
    verb(
      'get {id}/workload',
      'Get team workload',
      'Returns how many open tasks, tickets and reviews each member of the team has, to spread work evenly.',
      {
        output: {
          teamId: 'id The team',
          members: [
            'By member',
            {
              userId: 'id The user',
              openTasks: 'int Open tasks',
              openTickets: 'int Open tickets',
              hoursPlanned: 'number Hours planned this week',
            },
          ],
        },
        toolsets: ['projects'],
      },
    ),
    verb('get org-chart', 'Get org chart', 'Returns all teams as a tree, with their leads.', {
      output: {
        teams: [
          'Every team',
          { teamId: 'id The team', name: 'string Name', parentTeamId: 'id? Its parent team', leadId: 'id? Its lead' },
        ],
      },
    }),
  ],
};

export const Role: Domain = {
  key: 'Role',
  about: 'access roles that bundle permissions (e.g. billing admin, support agent, read-only auditor) given to users',
  statuses: ['active', 'deprecated'],
  fields: {
    name: 'string Name, e.g. Billing admin',
    description: 'text? What it is for',
    permissions: 'string[] What it allows, e.g. invoices:write',
  },
  toolsets: ['admin'],
  verbs: [
    verb('post {id}/users', 'Grant role to user', 'Gives a user the role, and with it its permissions, from now on.', {
      body: { userId: 'id The user', expiresOn: 'date? When the grant ends (default never)' },
      output: { roleId: 'id The role', userId: 'id The user', grantedAt: 'datetime When' },
    }),
    verb('del {id}/users/{userId}', 'Revoke role from user', 'Takes the role away from a user.', {
      params: { userId: 'id The user' },
    }),
    verb('get {id}/users', 'List role members', 'Returns the users who have the role.', {
      output: {
        items: [
          'The users',
          { userId: 'id The user', grantedAt: 'datetime Since when', expiresOn: 'date? Until when' },
        ],
      },
    }),
    verb('post {id}/permissions', 'Add permission to role', 'Adds permissions to the role, for everyone who has it.', {
      body: { permissions: 'string[] The permissions, e.g. reports:read' },
      output: { roleId: 'id The role', permissions: 'string[] All it allows now' },
    }),
    verb('get compare', 'Compare roles', 'Shows which permissions two roles share and which only one of them has.', {
      query: { roleA: 'id One role', roleB: 'id The other' },
      output: { both: 'string[] In both', onlyA: 'string[] Only in the first', onlyB: 'string[] Only in the second' },
    }),
  ],
};

export const Dashboard: Domain = {
  key: 'Dashboard',
  about: 'screens of charts and numbers (widgets) that people keep an eye on, private or shared',
  statuses: ['private', 'shared'],
  fields: {
    name: 'string Name, e.g. Support at a glance',
    ownerId: 'id Who made it',
    description: 'text? What it shows',
  },
  filters: { ownerId: 'id? Only this user’s dashboards' },
  toolsets: ['reporting'],
  verbs: [
    verb(
      'post {id}/widgets',
      'Add dashboard widget',
      'Adds a chart, number or table to the dashboard, showing a metric.',
      {
        body: { kind: 'enum(chart|number|table) What it shows', metricId: 'id The metric', title: 'string Its title' },
        output: {
          widgetId: 'id The widget',
          dashboardId: 'id The dashboard',
          kind: 'enum(chart|number|table) What it shows',
          title: 'string Its title',
        },
        additive: true,
      },
    ),
    verb('del {id}/widgets/{widgetId}', 'Remove dashboard widget', 'Takes a widget off the dashboard.', {
      params: { widgetId: 'id The widget' },
    }),
    verb(
      'get {id}/snapshot',
      'Get dashboard snapshot image',
      'Returns the dashboard as it looks now, as a PNG image to share.',
      {
        output: { dashboardId: 'id The dashboard', imageUrl: 'url The PNG image', takenAt: 'datetime When' },
        toolsets: ['media'],
      },
    ),
    verb('post {id}/default', 'Set default dashboard', 'Makes the dashboard the first one a user sees.', {
      body: { userId: 'id The user' },
    }),
  ],
};

export const Metric: Domain = {
  key: 'Metric',
  about: 'business numbers tracked over time (revenue, sign-ups, response time), each defined once and used in reports',
  statuses: ['active', 'deprecated'],
  fields: {
    name: 'string Name, e.g. Monthly recurring revenue',
    unit: 'enum(count|currency|percent|seconds) What it counts',
    formula: 'text? How it is computed',
    ownerId: 'id? Who answers for it',
  },
  toolsets: ['reporting'],
  verbs: [
    verb('get {id}/values', 'Get metric values', 'Returns the metric’s values over a period, by day, week or month.', {
      query: { from: 'date First day', to: 'date Last day', interval: 'enum(day|week|month)? Step (default day)' },
      output: {
        metricId: 'id The metric',
        points: ['The values', { date: 'date Start of the step', value: 'number The value' }],
      },
    }),
    verb(
      'get {id}/total',
      'Sum metric over period',
      'Adds the metric up over a period, e.g. total sign-ups of a quarter.',
      {
        query: { from: 'date First day', to: 'date Last day' },
        output: { metricId: 'id The metric', total: 'number The sum', from: 'date First day', to: 'date Last day' },
      },
    ),
    verb(
      'get {id}/comparison',
      'Compare metric periods',
      'Compares the metric of a period with the period before, or with the same period a year ago.',
      {
        query: {
          from: 'date First day',
          to: 'date Last day',
          against: 'enum(previous_period|previous_year) What to compare with',
        },
        output: {
          metricId: 'id The metric',
          current: 'number This period',
          previous: 'number The other',
          changePercent: 'number Change in percent',
        },
      },
    ),
    verb(
      'put {id}/target',
      'Set metric target',
      'Sets the value the metric should reach by a date, shown on dashboards.',
      {
        body: { value: 'number The target', by: 'date By when' },
        output: { metricId: 'id The metric', value: 'number The target', by: 'date By when' },
      },
    ),
    verb(
      'get {id}/anomalies',
      'Detect metric anomalies',
      'Finds the days the metric moved far out of its usual range.',
      {
        query: { from: 'date First day', to: 'date Last day' },
        output: {
          metricId: 'id The metric',
          days: [
            'Unusual days',
            { date: 'date The day', value: 'number The value', expected: 'number What was expected' },
          ],
        },
      },
    ),
  ],
};

export const Incident: Domain = {
  key: 'Incident',
  about: 'production outages and service problems handled by the on-call engineers, from alert to postmortem',
  statuses: ['triggered', 'acknowledged', 'resolved'],
  fields: {
    title: 'string What is broken, e.g. Checkout API returns 500',
    severity: 'enum(sev1|sev2|sev3|sev4) How bad, sev1 the worst',
    service: 'string The service hit, e.g. payments-api',
    commanderId: 'id? The engineer leading the response',
    description: 'text? What is known',
  },
  filters: { severity: 'enum(sev1|sev2|sev3|sev4)? Only this severity', service: 'string? Only this service' },
  assignee: 'commanderId',
  toolsets: ['it'],
  skip: ['duplicate', 'share'],
  verbs: [
    verb('post {id}/acknowledge', 'Acknowledge incident', 'Tells everyone someone is on it, and stops the paging.', {
      sets: { status: 'acknowledged' },
    }),
    verb('post {id}/resolve', 'Resolve incident', 'Marks the incident over, with its root cause if known.', {
      body: { rootCause: 'text? What caused it' },
      sets: { status: 'resolved' },
    }),
    verb('post {id}/escalate', 'Escalate incident', 'Raises the severity and pages the next level of on-call.', {
      body: { severity: 'enum(sev1|sev2|sev3|sev4) The new severity' },
    }),
    verb(
      'post {id}/updates',
      'Post incident update',
      'Posts a status update, for the team or, if public, for the status page too.',
      {
        body: { text: 'text The update', public: 'bool? Show it on the status page' },
        output: { incidentId: 'id The incident', updateId: 'id The update', postedAt: 'datetime When' },
        additive: true,
      },
    ),
    verb(
      'post {id}/postmortem',
      'Write incident postmortem',
      'Starts the postmortem document from the incident’s timeline and updates.',
      {
        output: {
          incidentId: 'id The incident',
          documentId: 'id The postmortem document',
          url: 'url Where to edit it',
        },
        toolsets: ['documents'],
      },
    ),
    verb(
      'post {id}/page',
      'Page on-call engineer',
      'Pages the engineer on call for the service, or a named one, by phone and push.',
      {
        body: { userId: 'id? Someone to page instead of the on-call' },
        output: { incidentId: 'id The incident', pagedUserId: 'id Who was paged', at: 'datetime When' },
      },
    ),
  ],
};
