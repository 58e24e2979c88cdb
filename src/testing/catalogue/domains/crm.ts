// Catalogue domains of customer relationships: contacts, accounts, leads, deals and the sales activities around them.
import { verb, type Domain } from '../spec';

export const Contact: Domain = {
  key: 'Contact',
  about: 'the people the company deals with (customers, prospects and partners) with their email, phone and company',
  statuses: ['lead', 'prospect', 'customer', 'former_customer'],
  fields: {
    firstName: 'string First name, e.g. Grace',
    lastName: 'string Last name, e.g. Hopper',
    email: 'email Email address, e.g. grace.hopper@example.com',
    phone: 'phone? Phone number in international format, e.g. +44 20 7946 0958',
    accountId: 'id? The company (account) the contact works for',
    jobTitle: 'string? Job title, e.g. Head of Procurement',
    ownerId: 'id? The sales user who owns the relationship',
  },
  filters: { accountId: 'id? Only the contacts of this account', ownerId: 'id? Only the contacts this user owns' },
  assignee: 'ownerId',
  toolsets: ['crm'],
  verbs: [
    verb(
      'post {id}/merge',
      'Merge contacts',
      'Merges a duplicate into this contact: its emails, notes, deals and activities move here and the duplicate is deleted.',
      {
        body: { duplicateContactId: 'id The duplicate contact, deleted once merged' },
      },
    ),
    verb(
      'get duplicates',
      'Find duplicate contacts',
      'Lists contacts that look like the same person as another one (same email, or same name at the same company), most likely first.',
    ),
    verb(
      'post {id}/unsubscribe',
      'Unsubscribe contact',
      'Stops all marketing email to the contact (receipts and other transactional email still go out) and records when and why.',
      {
        body: { reason: 'string? Why, in the words of the contact' },
        output: {
          contactId: 'id The contact',
          unsubscribed: 'bool Always true',
          unsubscribedAt: 'datetime When it was recorded',
        },
        sets: { unsubscribed: true },
        toolsets: ['marketing'],
      },
    ),
    verb(
      'get {id}/timeline',
      'Get contact timeline',
      'Returns everything that happened with the contact, newest first: emails, calls, meetings, deals, tickets and notes.',
      {
        // What every conversation about a customer starts from: listed on the search surface too.
        alwaysListed: true,
        output: {
          contactId: 'id The contact',
          items: [
            'The events, newest first',
            {
              at: 'datetime When',
              kind: 'enum(email|call|meeting|deal|ticket|note) What happened',
              summary: 'string One line about it',
            },
          ],
        },
      },
    ),
    verb(
      'post {id}/notes',
      'Add note to contact',
      'Writes a private note on the contact, seen by the sales team only.',
      {
        body: { text: 'text The note' },
        output: {
          noteId: 'id Id of the note',
          contactId: 'id The contact',
          text: 'text The note',
          createdAt: 'datetime When it was written',
        },
        additive: true,
      },
    ),
    verb(
      'post {id}/consent',
      'Record marketing consent',
      'Records that the contact agreed to, or refused, marketing on a channel, with where the answer was given (GDPR proof).',
      {
        body: {
          channel: 'enum(email|sms|phone) The channel',
          granted: 'bool Whether they agreed',
          source: 'string? Where they answered, e.g. signup form',
        },
        output: {
          contactId: 'id The contact',
          channel: 'enum(email|sms|phone) The channel',
          granted: 'bool Whether they agreed',
          recordedAt: 'datetime When',
        },
      },
    ),
    verb(
      'post {id}/enrich',
      'Enrich contact from public data',
      'Fills in job title, company, location and social profiles from public sources; fields already set are kept.',
    ),
  ],
};

export const Account: Domain = {
  key: 'Account',
  about: 'the companies the business sells to or works with, each with its industry, size and account manager',
  statuses: ['prospect', 'active', 'at_risk', 'churned'],
  fields: {
    name: 'string Legal name of the company, e.g. Acme Logistics GmbH',
    website: 'url? Company website, e.g. https://acme-logistics.example',
    industry: 'enum(software|retail|manufacturing|healthcare|finance|logistics|education|other)? Industry',
    employees: 'int? Number of employees, e.g. 250',
    country: 'country? Country, ISO 3166 two-letter code, e.g. DE',
    ownerId: 'id? The account manager (a user)',
  },
  computed: { annualRevenue: 'money What the account paid over the last 12 months' },
  filters: {
    ownerId: 'id? Only the accounts this user manages',
    industry: 'enum(software|retail|manufacturing|healthcare|finance|logistics|education|other)? Only this industry',
  },
  assignee: 'ownerId',
  toolsets: ['crm'],
  verbs: [
    verb(
      'get {id}/contacts',
      'List account contacts',
      'Returns the people who work at the account, decision makers first.',
      {
        output: {
          items: [
            'The contacts',
            {
              contactId: 'id The contact',
              name: 'string Full name',
              email: 'email Email address',
              jobTitle: 'string? Job title',
            },
          ],
        },
      },
    ),
    verb(
      'post {id}/merge',
      'Merge accounts',
      'Merges a duplicate company into this account: its contacts, deals, invoices and tickets move here and the duplicate is deleted.',
      {
        body: { duplicateAccountId: 'id The duplicate account, deleted once merged' },
      },
    ),
    verb(
      'get {id}/health',
      'Get account health score',
      'Scores how likely the account is to renew (0 to 100) from product usage, open tickets, late payments and engagement, with the main reasons.',
      {
        output: {
          accountId: 'id The account',
          score: 'int From 0 (will leave) to 100 (healthy)',
          trend: 'enum(up|flat|down) Change over 30 days',
          reasons: 'string[] What weighs most on the score',
        },
        toolsets: ['support'],
      },
    ),
    verb(
      'put {id}/parent',
      'Set parent account',
      'Makes the account a subsidiary of another one, so reports can roll its revenue up to the group.',
      {
        body: { parentAccountId: 'id The parent company' },
      },
    ),
    verb(
      'get {id}/revenue',
      'Get account revenue',
      'Returns what the account was invoiced, what it paid and what it still owes over a period.',
      {
        query: { from: 'date First day of the period', to: 'date Last day of the period' },
        output: {
          accountId: 'id The account',
          currency: 'currency Currency of the amounts',
          invoiced: 'money Invoiced in the period',
          paid: 'money Paid in the period',
          outstanding: 'money Still owed',
        },
        toolsets: ['billing'],
      },
    ),
    verb(
      'post {id}/transfer',
      'Transfer account to new owner',
      'Hands the account, its contacts and, if asked, its open deals to another account manager, who is notified.',
      {
        body: {
          newOwnerId: 'id The new account manager',
          includeOpenDeals: 'bool? Move the open deals too (default true)',
        },
      },
    ),
  ],
};

export const Lead: Domain = {
  key: 'Lead',
  about: 'possible customers who showed interest but are not qualified yet, with where they came from and a score',
  statuses: ['new', 'contacted', 'qualified', 'disqualified', 'converted'],
  fields: {
    name: 'string Full name, e.g. Ada Byron',
    email: 'email Email address, e.g. ada@analytical-engines.example',
    company: 'string? Company name, e.g. Analytical Engines Ltd',
    source: 'enum(website|referral|event|ad|cold_outreach|partner) Where the lead came from',
    ownerId: 'id? The sales user working the lead',
  },
  computed: { score: 'int Lead score from 0 to 100: fit and engagement' },
  filters: {
    source: 'enum(website|referral|event|ad|cold_outreach|partner)? Only leads from this source',
    ownerId: 'id? Only the leads of this user',
  },
  assignee: 'ownerId',
  toolsets: ['crm'],
  verbs: [
    verb(
      'post {id}/qualify',
      'Qualify lead',
      'Marks the lead as a real sales opportunity: it has a need, a budget and someone who decides.',
      { sets: { status: 'qualified' } },
    ),
    verb(
      'post {id}/disqualify',
      'Disqualify lead',
      'Closes the lead without a sale, with the reason, so that it stops showing in the queues.',
      {
        body: { reason: 'enum(no_budget|no_need|competitor|unresponsive|spam) Why' },
        sets: { status: 'disqualified' },
      },
    ),
    verb(
      'post {id}/convert',
      'Convert lead to deal',
      'Turns a qualified lead into a contact, an account (unless the company exists) and an open deal, and links them.',
      {
        body: {
          dealTitle: 'string? Title of the new deal (default: the company name)',
          amount: 'money? Expected value of the deal',
        },
        output: {
          leadId: 'id The lead, now converted',
          contactId: 'id The new contact',
          accountId: 'id The account',
          dealId: 'id The new deal',
        },
      },
    ),
    verb(
      'post {id}/rescore',
      'Rescore lead',
      'Recomputes the lead score now, from its profile and its latest email opens, visits and form fills.',
    ),
    verb(
      'post distribute',
      'Distribute new leads',
      'Shares every unassigned new lead between the sales users given, in turn (round robin), and notifies each of them.',
      {
        body: { userIds: 'id[] The sales users to share the leads between' },
        output: { assigned: 'int How many leads were assigned', leadIds: 'id[] The leads assigned' },
      },
    ),
  ],
};

export const Deal: Domain = {
  key: 'Deal',
  about: 'sales opportunities (possible sales to an account) with their value, pipeline stage and expected close date',
  statuses: ['prospecting', 'qualification', 'proposal', 'negotiation', 'won', 'lost'],
  fields: {
    title: 'string What is being sold, e.g. 200 seats, annual plan',
    accountId: 'id The account buying',
    contactId: 'id? The main contact on the buying side',
    amount: 'money Expected value',
    currency: 'currency Currency of the amount',
    closeDate: 'date When the deal is expected to close',
    ownerId: 'id? The sales user who owns the deal',
  },
  filters: {
    ownerId: 'id? Only the deals of this user',
    accountId: 'id? Only the deals of this account',
    closingBefore: 'date? Only the deals expected to close before this day',
  },
  assignee: 'ownerId',
  toolsets: ['crm', 'sales'],
  verbs: [
    verb(
      'put {id}/stage',
      'Move deal to stage',
      'Moves the deal to another stage of the sales pipeline (the column of the pipeline board); won and lost close it.',
      {
        body: { status: 'status The stage to move it to', note: 'string? Why, kept in its history' },
      },
    ),
    verb(
      'post {id}/win',
      'Mark deal won',
      'Closes the deal as won on today’s date; its amount counts toward the quarter.',
      { sets: { status: 'won' } },
    ),
    verb(
      'post {id}/lose',
      'Mark deal lost',
      'Closes the deal as lost, with the reason and the competitor who won it if any.',
      {
        body: {
          reason: 'enum(price|features|timing|competitor|no_decision) Why it was lost',
          competitor: 'string? Who won it, e.g. Globex',
        },
        sets: { status: 'lost' },
      },
    ),
    verb(
      'get pipeline',
      'Get pipeline board',
      'Returns the sales pipeline as a board: one column per stage with how many deals it holds and their total value.',
      {
        query: { ownerId: 'id? Only the deals of this user' },
        output: {
          columns: [
            'The stages, in order',
            { status: 'status The stage', count: 'int How many deals', value: 'money Their total value' },
          ],
          currency: 'currency Currency of the values',
        },
      },
    ),
    verb(
      'get forecast',
      'Forecast sales revenue',
      'Estimates the revenue of a quarter from the open deals, each weighted by how likely its stage is to close.',
      {
        query: { quarter: 'string The quarter, e.g. 2026-Q3' },
        output: {
          quarter: 'string The quarter, e.g. 2026-Q3',
          committed: 'money Won already',
          weighted: 'money Open deals times their odds',
          bestCase: 'money If every open deal closes',
          currency: 'currency Currency of the amounts',
        },
        toolsets: ['reporting'],
      },
    ),
    verb(
      'post {id}/products',
      'Add product to deal',
      'Adds a product line to the deal; its amount becomes the sum of its lines.',
      {
        body: {
          productId: 'id The product',
          quantity: 'int How many',
          unitPrice: 'money? Price of one (default: the list price)',
        },
        additive: true,
      },
    ),
  ],
};

export const Activity: Domain = {
  key: 'Activity',
  plural: 'activities',
  about: 'the calls, meetings, demos and emails that sales people plan and log against contacts and deals',
  statuses: ['planned', 'done', 'cancelled'],
  fields: {
    type: 'enum(call|meeting|email|demo) What kind of activity',
    subject: 'string What it is about, e.g. Pricing call with Acme',
    contactId: 'id? The contact it is with',
    dealId: 'id? The deal it is for',
    dueAt: 'datetime When it is planned',
    ownerId: 'id? The user who does it',
  },
  filters: {
    ownerId: 'id? Only this user’s activities',
    dealId: 'id? Only the activities of this deal',
    dueBefore: 'date? Only those due before this day',
  },
  assignee: 'ownerId',
  toolsets: ['crm'],
  verbs: [
    verb('post {id}/complete', 'Complete activity', 'Marks the activity done, with what came out of it.', {
      body: { outcome: 'text? What came out of it' },
      sets: { status: 'done' },
    }),
    verb(
      'post {id}/reschedule',
      'Reschedule activity',
      'Moves the activity to another time and tells the contact when it is a meeting.',
      {
        body: { dueAt: 'datetime The new time', notifyContact: 'bool? Email the contact the new time (default true)' },
      },
    ),
    verb(
      'get overdue',
      'List overdue activities',
      'Returns the planned activities whose time has passed without being done, oldest first.',
      {
        query: { ownerId: 'id? Only this user’s' },
        sets: { status: 'planned' },
      },
    ),
    verb(
      'get agenda',
      'List activities due today',
      'Returns the calls, meetings and demos planned for a day (default today), in time order.',
      {
        query: { day: 'date? The day (default today)', ownerId: 'id? Only this user’s' },
        output: 'list',
      },
    ),
    verb(
      'post log-call',
      'Log call',
      'Records a call that already happened, with its length and notes, on the contact’s timeline.',
      {
        body: {
          contactId: 'id Who was called',
          durationMinutes: 'int How long it lasted',
          notes: 'text? What was said',
        },
        sets: { status: 'done', type: 'call' },
        additive: true,
      },
    ),
    verb('post {id}/cancel', 'Cancel activity', 'Cancels a planned activity; a meeting’s attendees are told.', {
      sets: { status: 'cancelled' },
    }),
  ],
};

export const FeatureRequest: Domain = {
  key: 'FeatureRequest',
  about: 'ideas and requests customers send about the product, voted on and linked to the roadmap',
  statuses: ['new', 'under_review', 'planned', 'in_progress', 'shipped', 'declined'],
  fields: {
    title: 'string The idea, e.g. Export reports to Google Sheets',
    description: 'text What the customer wants and why',
    contactId: 'id The contact who asked',
    productArea: 'string? Part of the product, e.g. Reporting',
  },
  computed: { votes: 'int How many customers asked for it' },
  filters: { productArea: 'string? Only this part of the product' },
  toolsets: ['crm', 'support'],
  verbs: [
    verb('post {id}/votes', 'Upvote feature request', 'Adds a customer’s vote to the request, with what they said.', {
      body: { contactId: 'id The contact voting', comment: 'text? Why they want it' },
      output: { featureRequestId: 'id The request', votes: 'int Votes it has now' },
      additive: true,
    }),
    verb('post {id}/merge', 'Merge feature requests', 'Merges a duplicate request into this one, with its votes.', {
      body: { duplicateFeatureRequestId: 'id The duplicate, deleted once merged' },
    }),
    verb(
      'post {id}/notify-voters',
      'Notify voters',
      'Emails everyone who voted for the request about its progress, e.g. that it shipped.',
      {
        body: { message: 'text The news' },
        output: { featureRequestId: 'id The request', notified: 'int How many were emailed' },
      },
    ),
    verb(
      'post {id}/decline',
      'Decline feature request',
      'Closes the request as not planned, with the reason voters get.',
      {
        body: { reason: 'text Why' },
        sets: { status: 'declined' },
      },
    ),
  ],
};
