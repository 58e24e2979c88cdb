// Catalogue domains of customer support: tickets, the help center, saved replies, service levels, surveys and live chat.
import { verb, type Domain } from '../spec';

export const Ticket: Domain = {
  key: 'Ticket',
  about: 'customer questions and problems handled by the support team, each with a requester, a priority and an agent',
  statuses: ['new', 'open', 'pending', 'on_hold', 'solved', 'closed'],
  fields: {
    subject: 'string One line, e.g. Cannot log in after password reset',
    description: 'text What the customer wrote',
    requesterId: 'id The contact who asked',
    priority: 'enum(low|normal|high|urgent) How soon it needs an answer',
    channel: 'enum(email|chat|phone|web)? Where it came from',
    assigneeId: 'id? The agent (a user) working on it',
  },
  computed: { dueAt: 'datetime When it must be answered, from its service level policy' },
  filters: {
    assigneeId: 'id? Only the tickets of this agent',
    requesterId: 'id? Only the tickets of this contact',
    priority: 'enum(low|normal|high|urgent)? Only this priority',
  },
  assignee: 'assigneeId',
  toolsets: ['support'],
  verbs: [
    verb(
      'post {id}/escalate',
      'Escalate ticket',
      'Hands the ticket to a higher support tier or to engineering, with what was tried already, and raises its priority.',
      {
        body: {
          level: 'enum(tier2|tier3|engineering) Who takes it over',
          reason: 'text What was tried and why it needs them',
        },
        sets: { priority: 'urgent', status: 'open' },
      },
    ),
    verb(
      'post {id}/close',
      'Close ticket',
      'Closes a ticket for good once the customer’s problem is solved; a new message opens a new ticket.',
      { sets: { status: 'closed' } },
    ),
    verb(
      'post {id}/reopen',
      'Reopen ticket',
      'Opens a solved ticket again, when the customer says the problem is back.',
      { sets: { status: 'open' } },
    ),
    verb(
      'post {id}/replies',
      'Reply to ticket',
      'Emails a reply to the customer from the agent, threaded with the ticket’s earlier messages.',
      {
        body: { body: 'text The reply', cc: 'email[]? Others to copy' },
        output: { replyId: 'id The reply', ticketId: 'id The ticket', sentAt: 'datetime When it was sent' },
        additive: true,
      },
    ),
    verb(
      'post {id}/comments',
      'Add internal comment to ticket',
      'Writes a comment on the ticket that only agents see (never the customer); mentioned agents are notified.',
      {
        body: { text: 'text The comment', mentionUserIds: 'id[]? Agents to notify' },
        output: {
          commentId: 'id The comment',
          ticketId: 'id The ticket',
          text: 'text The comment',
          createdAt: 'datetime When',
        },
        additive: true,
      },
    ),
    verb(
      'put {id}/assignee',
      'Assign ticket to agent',
      'Gives the ticket to an agent, who is notified; the customer sees who handles it.',
      {
        body: { assigneeId: 'id The agent (a user)', note: 'string? A note for the agent' },
      },
    ),
    verb(
      'post {id}/merge',
      'Merge tickets',
      'Merges a duplicate ticket of the same customer into this one; the duplicate is closed with a link here.',
      {
        body: { duplicateTicketId: 'id The duplicate, closed once merged' },
      },
    ),
    verb(
      'get unassigned',
      'List unassigned tickets',
      'Returns the open tickets no agent has taken yet, the most urgent and oldest first.',
      { sets: { status: 'new' } },
    ),
    verb(
      'put {id}/priority',
      'Set ticket priority',
      'Changes how urgent the ticket is; its due time follows from the service level policy.',
      {
        body: { priority: 'enum(low|normal|high|urgent) The new priority' },
      },
    ),
    verb(
      'post {id}/saved-replies/{savedReplyId}',
      'Apply saved reply to ticket',
      'Answers the ticket with a saved reply, filled in with the customer’s name and details.',
      {
        params: { savedReplyId: 'id The saved reply to use' },
      },
    ),
    verb(
      'get {id}/satisfaction',
      'Get ticket satisfaction rating',
      'Returns how the customer rated the help they got on this ticket, if they answered the survey.',
      {
        output: {
          ticketId: 'id The ticket',
          rating: 'enum(good|bad|unrated) The rating',
          comment: 'text? What they wrote',
        },
      },
    ),
  ],
};

export const KnowledgeArticle: Domain = {
  key: 'KnowledgeArticle',
  about: 'help center articles that answer customers’ common questions, in several languages',
  statuses: ['draft', 'in_review', 'published', 'archived'],
  fields: {
    title: 'string Title, e.g. How to reset your password',
    body: 'text The article, in Markdown',
    section: 'string? Help center section, e.g. Account and login',
    locale: 'string Language, e.g. en-GB',
    tags: 'string[]? Labels, e.g. login',
  },
  filters: { locale: 'string? Only this language', section: 'string? Only this section' },
  toolsets: ['support'],
  verbs: [
    verb('post {id}/publish', 'Publish article', 'Puts the article on the public help center.', {
      sets: { status: 'published' },
    }),
    verb('post {id}/unpublish', 'Unpublish article', 'Takes the article off the help center; it stays as a draft.', {
      sets: { status: 'draft' },
    }),
    verb(
      'post {id}/translations',
      'Translate article',
      'Makes a machine translation of the article into another language, as a draft for review.',
      {
        body: { locale: 'string The language to translate to, e.g. de-DE' },
        sets: { status: 'draft' },
      },
    ),
    verb(
      'get search',
      'Search help center',
      'Finds the published articles that answer a question, as a customer would ask it, best match first.',
      {
        query: { q: 'string The question', locale: 'string? Language (default en-GB)' },
        sets: { status: 'published' },
      },
    ),
    verb(
      'post {id}/feedback',
      'Rate article helpful',
      'Records whether a reader found the article helpful, with an optional comment.',
      {
        body: { helpful: 'bool Whether it helped', comment: 'text? What was missing' },
        output: { articleId: 'id The article', helpfulPercent: 'percent Share of readers it helped' },
        additive: true,
      },
    ),
    verb(
      'get suggestions',
      'Suggest articles for ticket',
      'Returns the articles most likely to answer a ticket, for the agent to send.',
      {
        query: { ticketId: 'id The ticket' },
        output: 'list',
      },
    ),
  ],
};

export const SavedReply: Domain = {
  key: 'SavedReply',
  plural: 'saved replies',
  about: 'answers agents reuse for frequent questions (macros), with placeholders for the customer’s details',
  statuses: ['active', 'inactive'],
  fields: {
    title: 'string Name agents pick it by, e.g. Refund policy',
    body: 'text The reply; {{name}} and {{ticket.id}} are filled in',
    shortcut: 'string? Typed to insert it, e.g. /refund',
    teamId: 'id? Only this team sees it',
  },
  filters: { teamId: 'id? Only this team’s' },
  toolsets: ['support'],
  verbs: [
    verb(
      'post {id}/render',
      'Preview saved reply',
      'Fills the saved reply in for a ticket and returns the text the customer would get, without sending it.',
      {
        body: { ticketId: 'id The ticket it is for' },
        output: { savedReplyId: 'id The saved reply', text: 'text The reply, filled in' },
      },
    ),
    verb(
      'get most-used',
      'List most used saved replies',
      'Returns the saved replies agents used most over the last 30 days.',
      { output: 'list' },
    ),
    verb('post {id}/deactivate', 'Deactivate saved reply', 'Hides the saved reply from agents without deleting it.', {
      sets: { status: 'inactive' },
    }),
    verb(
      'post {id}/copy',
      'Copy saved reply to team',
      'Makes a copy of the saved reply for another team, who may change it.',
      {
        body: { teamId: 'id The team to copy it to' },
        additive: true,
      },
    ),
  ],
};

export const ServiceLevelPolicy: Domain = {
  key: 'ServiceLevelPolicy',
  plural: 'service level policies',
  about: 'targets for how fast support answers and solves tickets of each priority (SLA)',
  statuses: ['active', 'inactive'],
  fields: {
    name: 'string Name, e.g. Enterprise customers',
    priority: 'enum(low|normal|high|urgent) The ticket priority it applies to',
    firstResponseMinutes: 'int Minutes to the first answer, e.g. 60',
    resolutionHours: 'int Hours to solve it, e.g. 24',
    businessHoursOnly: 'bool? Count only business hours (default true)',
  },
  toolsets: ['support'],
  verbs: [
    verb(
      'get breaches',
      'List SLA breaches',
      'Returns the tickets that missed, or are about to miss, their response or resolution target.',
      {
        query: { within: 'enum(breached|next_hour|today)? Which ones (default breached)' },
        output: {
          items: [
            'The tickets',
            {
              ticketId: 'id The ticket',
              target: 'enum(first_response|resolution) Which target',
              dueAt: 'datetime When it was due',
            },
          ],
        },
      },
    ),
    verb(
      'get compliance',
      'Get SLA compliance report',
      'Reports the share of tickets answered and solved within target over a period, by priority.',
      {
        query: { from: 'date First day', to: 'date Last day' },
        output: {
          responsePercent: 'percent Answered in time',
          resolutionPercent: 'percent Solved in time',
          tickets: 'int Tickets counted',
        },
        toolsets: ['reporting'],
      },
    ),
    verb('post {id}/pause', 'Pause SLA clock', 'Stops the policy’s clock on a ticket while waiting for the customer.', {
      body: { ticketId: 'id The ticket' },
      output: { ticketId: 'id The ticket', pausedAt: 'datetime When the clock stopped' },
    }),
    verb(
      'put order',
      'Reorder SLA policies',
      'Sets the order in which policies are tried; a ticket gets the first that matches.',
      {
        body: { ids: 'id[] The policies, first tried first' },
        output: { ids: 'id[] The policies in their new order' },
      },
    ),
  ],
};

export const Survey: Domain = {
  key: 'Survey',
  about: 'customer satisfaction (CSAT) and NPS surveys sent after a ticket is solved or an order is delivered',
  statuses: ['draft', 'active', 'closed'],
  fields: {
    name: 'string Name, e.g. Post-support CSAT',
    question: 'string The question, e.g. How satisfied are you with the help you received?',
    kind: 'enum(csat|nps|ces) What it measures',
    trigger: 'enum(ticket_solved|order_delivered|manual) When it is sent',
  },
  toolsets: ['support', 'marketing'],
  verbs: [
    verb('post {id}/send', 'Send survey', 'Emails the survey now to the contacts given (for surveys sent by hand).', {
      body: { contactIds: 'id[] Who to send it to' },
      output: { surveyId: 'id The survey', sent: 'int How many emails went out' },
    }),
    verb('get {id}/results', 'Get survey results', 'Returns the survey’s score and how many answered, over a period.', {
      query: { from: 'date? First day', to: 'date? Last day' },
      output: {
        surveyId: 'id The survey',
        responses: 'int How many answered',
        score: 'number CSAT in percent, or NPS from -100 to 100',
        responseRate: 'percent Share who answered',
      },
      toolsets: ['reporting'],
    }),
    verb(
      'get {id}/responses',
      'List survey responses',
      'Returns the answers one by one, newest first, with the comment each customer left.',
      {
        output: {
          items: [
            'The answers',
            {
              contactId: 'id Who answered',
              score: 'int Their score',
              comment: 'text? What they wrote',
              answeredAt: 'datetime When',
            },
          ],
        },
      },
    ),
    verb('post {id}/close', 'Close survey', 'Stops sending the survey; its results stay.', {
      sets: { status: 'closed' },
    }),
    verb('post {id}/activate', 'Activate survey', 'Starts sending the survey on its trigger.', {
      sets: { status: 'active' },
    }),
  ],
};

export const ChatConversation: Domain = {
  key: 'ChatConversation',
  about: 'live chats between website visitors and support agents',
  statuses: ['waiting', 'active', 'ended'],
  fields: {
    topic: 'string What the visitor asked about, e.g. Delivery times',
    contactId: 'id? The contact, when the visitor is known',
    agentId: 'id? The agent (a user) chatting',
    visitorName: 'string? Name the visitor gave',
  },
  filters: { agentId: 'id? Only this agent’s chats' },
  assignee: 'agentId',
  toolsets: ['support'],
  skip: ['duplicate', 'import'],
  verbs: [
    verb('post {id}/messages', 'Send chat message', 'Sends a message to the visitor in the chat, as the agent.', {
      body: { text: 'text The message' },
      output: { messageId: 'id The message', chatConversationId: 'id The chat', sentAt: 'datetime When' },
      additive: true,
    }),
    verb('get {id}/messages', 'List chat messages', 'Returns the messages of the chat, oldest first.', {
      output: {
        items: [
          'The messages',
          { from: 'enum(visitor|agent|bot) Who wrote it', text: 'text The message', sentAt: 'datetime When' },
        ],
      },
    }),
    verb(
      'post {id}/transfer',
      'Transfer chat to another agent',
      'Hands the chat to another agent or team, who sees the conversation so far.',
      {
        body: { agentId: 'id The agent to take it over' },
      },
    ),
    verb('post {id}/end', 'End chat', 'Ends the chat and emails the visitor its transcript when asked.', {
      body: { sendTranscript: 'bool? Email the transcript to the visitor' },
      sets: { status: 'ended' },
    }),
    verb(
      'post {id}/ticket',
      'Convert chat to ticket',
      'Makes a ticket of the chat, with its transcript, for a problem that needs more time.',
      {
        output: { chatConversationId: 'id The chat', ticketId: 'id The new ticket' },
      },
    ),
    verb('get {id}/transcript', 'Get chat transcript', 'Returns the whole conversation as plain text.', {
      output: { chatConversationId: 'id The chat', text: 'text The transcript' },
    }),
  ],
};
