// Catalogue domains of the office: documents, folders, contracts, calendar events, meeting rooms and reminders.
import { verb, type Domain } from '../spec';

export const Document: Domain = {
  key: 'Document',
  about: 'files the company writes and keeps (proposals, policies, reports, scans), with versions, owner and folder',
  statuses: ['draft', 'final', 'archived'],
  fields: {
    title: 'string Title, e.g. Q3 board report',
    folderId: 'id? The folder it is in',
    ownerId: 'id The user who owns it',
    content: 'text? Its text, for documents written here',
    contentType: 'string? File type, e.g. application/pdf',
  },
  filters: { folderId: 'id? Only this folder’s documents', ownerId: 'id? Only this user’s' },
  assignee: 'ownerId',
  toolsets: ['documents'],
  verbs: [
    verb('post upload', 'Upload document', 'Stores a file (PDF, Word, Excel, image) from a URL as a new document.', {
      body: {
        fileName: 'string File name, e.g. board-report.pdf',
        url: 'url Where to fetch it',
        folderId: 'id? The folder to put it in',
      },
      output: 'record',
      additive: true,
    }),
    verb(
      'get {id}/download',
      'Download document',
      'Returns a link to download the document’s file, valid for one hour.',
      {
        query: { version: 'int? A version number (default: the latest)' },
        output: {
          documentId: 'id The document',
          url: 'url Download link',
          sizeBytes: 'int Size of the file',
          contentType: 'string File type',
        },
      },
    ),
    verb(
      'get {id}/versions',
      'List document versions',
      'Returns the saved versions of the document, newest first, with who saved each.',
      {
        output: {
          items: [
            'The versions',
            { version: 'int Version number', savedBy: 'id Who saved it', savedAt: 'datetime When' },
          ],
        },
      },
    ),
    verb(
      'post {id}/versions/{version}/restore',
      'Restore document version',
      'Makes an earlier version the current one; the current one is kept as a version.',
      {
        params: { version: 'int The version to bring back' },
      },
    ),
    verb(
      'put {id}/folder',
      'Move document to folder',
      'Moves the document into another folder; its sharing follows the new folder.',
      { body: { folderId: 'id The folder' } },
    ),
    verb('post {id}/lock', 'Lock document', 'Prevents edits by others while you work on it, for up to a day.', {
      output: {
        documentId: 'id The document',
        lockedBy: 'id Who holds the lock',
        until: 'datetime When the lock ends',
      },
    }),
    verb(
      'post {id}/convert',
      'Convert document format',
      'Makes a copy of the document in another format, e.g. Word to PDF.',
      {
        body: { format: 'enum(pdf|docx|txt|html) The format' },
        output: {
          documentId: 'id The original',
          format: 'enum(pdf|docx|txt|html) The format',
          url: 'url Link to the converted file',
        },
      },
    ),
    verb(
      'get {id}/text',
      'Extract document text',
      'Returns the plain text of the document (read from PDFs and scans by OCR), e.g. to summarise it.',
      {
        output: { documentId: 'id The document', text: 'text Its text', pages: 'int Number of pages' },
      },
    ),
  ],
};

export const CalendarEvent: Domain = {
  key: 'CalendarEvent',
  about: 'meetings and appointments in people’s calendars, with attendees, place and video link',
  statuses: ['confirmed', 'tentative', 'cancelled'],
  fields: {
    title: 'string Title, e.g. Quarterly planning',
    startsAt: 'datetime When it starts',
    endsAt: 'datetime When it ends',
    location: 'string? Where, e.g. Room Ada, 3rd floor',
    organizerId: 'id The user who organises it',
    attendeeEmails: 'email[]? Who is invited',
    description: 'text? Agenda',
  },
  filters: {
    organizerId: 'id? Only this user’s events',
    from: 'date? Only events from this day',
    to: 'date? Only events until this day',
  },
  toolsets: ['calendar'],
  verbs: [
    verb('post {id}/attendees', 'Invite attendees', 'Invites more people to the event; they get an email invite.', {
      body: { emails: 'email[] Who to invite' },
      output: { calendarEventId: 'id The event', attendeeEmails: 'email[] Everyone invited now' },
      additive: true,
    }),
    verb('post {id}/rsvp', 'Respond to invitation', 'Accepts, declines or tentatively accepts an event invitation.', {
      body: { response: 'enum(yes|no|maybe) The answer', comment: 'string? A note to the organiser' },
      output: { calendarEventId: 'id The event', response: 'enum(yes|no|maybe) The answer' },
    }),
    verb(
      'post {id}/reschedule',
      'Reschedule meeting',
      'Moves the event to another time and sends everyone the update.',
      {
        body: { startsAt: 'datetime New start', endsAt: 'datetime New end' },
      },
    ),
    verb('post {id}/cancel', 'Cancel meeting', 'Cancels the event and, unless told not to, tells the attendees.', {
      body: { notifyAttendees: 'bool? Email the attendees (default true)', message: 'string? Why' },
      sets: { status: 'cancelled' },
    }),
    verb(
      'get free-time',
      'Find free time',
      'Finds the times when everyone asked is free for a meeting of a given length, within working hours.',
      {
        query: {
          attendeeEmail: 'email Someone who must attend',
          durationMinutes: 'int How long the meeting is',
          from: 'date First day to look',
          to: 'date Last day to look',
        },
        output: { slots: ['Free times, earliest first', { startsAt: 'datetime Start', endsAt: 'datetime End' }] },
      },
    ),
    verb('get agenda', 'Get agenda for day', 'Returns a user’s events of a day (default today), in time order.', {
      query: { day: 'date? The day (default today)', organizerId: 'id? Whose agenda (default yours)' },
      output: 'list',
    }),
    verb(
      'post {id}/video-link',
      'Add video call link',
      'Adds a video meeting link (Google Meet, Zoom or Teams) to the event.',
      {
        body: { provider: 'enum(meet|zoom|teams) Which video service' },
        output: { calendarEventId: 'id The event', videoUrl: 'url The link to join' },
      },
    ),
  ],
};

export const MeetingRoom: Domain = {
  key: 'MeetingRoom',
  about: 'bookable rooms of the offices, with their building, floor, capacity and equipment',
  statuses: ['available', 'out_of_service'],
  fields: {
    name: 'string Name, e.g. Room Ada',
    building: 'string Building, e.g. Berlin HQ',
    floor: 'int? Floor, e.g. 3',
    capacity: 'int How many people it seats, e.g. 8',
    hasVideo: 'bool? Has a video conference screen',
  },
  filters: { building: 'string? Only this building’s rooms' },
  toolsets: ['calendar'],
  verbs: [
    verb('post {id}/bookings', 'Book meeting room', 'Books the room for a time; fails with 409 when it is taken.', {
      body: { startsAt: 'datetime Start', endsAt: 'datetime End', title: 'string What for, e.g. Design review' },
      output: {
        bookingId: 'id The booking',
        meetingRoomId: 'id The room',
        startsAt: 'datetime Start',
        endsAt: 'datetime End',
      },
    }),
    verb('del {id}/bookings/{bookingId}', 'Cancel room booking', 'Frees the room again.', {
      params: { bookingId: 'id The booking' },
    }),
    verb('get {id}/availability', 'Check room availability', 'Returns when the room is free and booked on a day.', {
      query: { day: 'date The day' },
      output: {
        meetingRoomId: 'id The room',
        booked: ['Its bookings', { startsAt: 'datetime Start', endsAt: 'datetime End', title: 'string What for' }],
      },
    }),
    verb(
      'get available',
      'Find available room',
      'Returns the rooms free for a whole time span that seat enough people, smallest first.',
      {
        query: {
          startsAt: 'datetime Start',
          endsAt: 'datetime End',
          capacity: 'int? At least this many seats',
          building: 'string? In this building',
        },
        sets: { status: 'available' },
      },
    ),
    verb(
      'post {id}/problems',
      'Report room problem',
      'Tells facilities that something in the room is broken (screen, heating, chairs).',
      {
        body: { description: 'text What is wrong' },
        output: { meetingRoomId: 'id The room', requestId: 'id The facilities request', reportedAt: 'datetime When' },
      },
    ),
  ],
};

export const Folder: Domain = {
  key: 'Folder',
  about: 'the folders documents are kept in, nested, each shared with people or teams',
  statuses: ['active', 'trashed'],
  fields: {
    name: 'string Name, e.g. Board meetings',
    parentFolderId: 'id? The folder it is in (none: at the top)',
    ownerId: 'id The user who owns it',
  },
  filters: { parentFolderId: 'id? Only the folders inside this one' },
  toolsets: ['documents'],
  verbs: [
    verb(
      'get {id}/contents',
      'List folder contents',
      'Returns the folders and documents in the folder, folders first, then by name.',
      {
        output: {
          items: [
            'What is in it',
            { kind: 'enum(folder|document) What it is', id: 'id Its id', name: 'string Its name' },
          ],
        },
      },
    ),
    verb('put {id}/parent', 'Move folder', 'Moves the folder, with all it holds, into another folder.', {
      body: { parentFolderId: 'id The folder to move it into' },
    }),
    verb('put {id}/permissions', 'Set folder permissions', 'Sets who may see and edit the folder and what is in it.', {
      body: {
        entries: [
          'Who may do what',
          { email: 'email A person or group', permission: 'enum(view|edit|manage) What they may do' },
        ],
      },
      output: {
        folderId: 'id The folder',
        entries: [
          'Who may do what now',
          { email: 'email A person or group', permission: 'enum(view|edit|manage) What they may do' },
        ],
      },
    }),
    verb(
      'get {id}/size',
      'Get folder size',
      'Returns how many documents the folder holds, and how much space they take, counting subfolders.',
      {
        output: { folderId: 'id The folder', documents: 'int Documents', bytes: 'int Space used in bytes' },
      },
    ),
    verb(
      'post {id}/trash',
      'Move folder to trash',
      'Moves the folder and what it holds to the trash, where it stays 30 days.',
      { sets: { status: 'trashed' } },
    ),
  ],
};

export const Reminder: Domain = {
  key: 'Reminder',
  about: 'personal reminders people set for themselves: a note and a time to be notified',
  statuses: ['scheduled', 'sent', 'snoozed', 'dismissed'],
  fields: {
    userId: 'id Who is reminded',
    text: 'string What to remember, e.g. Call the accountant back',
    remindAt: 'datetime When to notify',
    link: 'url? A page it is about',
  },
  filters: { userId: 'id? Only this user’s reminders' },
  toolsets: ['calendar'],
  verbs: [
    verb('post {id}/snooze', 'Snooze reminder', 'Puts the reminder off for some minutes.', {
      body: { minutes: 'int(1..10080) For how long' },
      sets: { status: 'snoozed' },
    }),
    verb('post {id}/dismiss', 'Dismiss reminder', 'Marks the reminder dealt with.', { sets: { status: 'dismissed' } }),
    verb('get due', 'List due reminders', 'Returns the reminders whose time has come and that are not dismissed.', {
      query: { userId: 'id? Only this user’s' },
      sets: { status: 'sent' },
    }),
    verb(
      'put {id}/recurrence',
      'Repeat reminder',
      'Makes the reminder come back every day, week or month, until a day if given.',
      {
        body: { every: 'enum(day|week|month) How often', until: 'date? Last day' },
        output: { reminderId: 'id The reminder', every: 'enum(day|week|month) How often', until: 'date? Last day' },
      },
    ),
  ],
};

export const Contract: Domain = {
  key: 'Contract',
  about: 'agreements with customers, suppliers and partners: their term, value, renewal and signatures',
  statuses: ['draft', 'in_review', 'out_for_signature', 'active', 'expired', 'terminated'],
  fields: {
    title: 'string Title, e.g. Master services agreement, Acme',
    accountId: 'id? The customer, for customer contracts',
    supplierId: 'id? The supplier, for supplier contracts',
    startDate: 'date When it starts',
    endDate: 'date When it ends',
    value: 'money? What it is worth in all',
    ownerId: 'id The user responsible',
    autoRenew: 'bool? Renews by itself unless cancelled',
  },
  filters: { accountId: 'id? Only this customer’s', supplierId: 'id? Only this supplier’s' },
  assignee: 'ownerId',
  toolsets: ['documents', 'legal'],
  verbs: [
    verb(
      'post {id}/signature',
      'Send contract for signature',
      'Sends the contract to the signers by email to sign electronically.',
      {
        body: { signerEmails: 'email[] Who signs, in order' },
        output: {
          contractId: 'id The contract',
          signatureRequestId: 'id The request',
          signerEmails: 'email[] Who signs',
        },
        sets: { status: 'out_for_signature' },
      },
    ),
    verb(
      'post {id}/renew',
      'Renew contract',
      'Extends the contract to a new end date, with the same terms unless changed.',
      { body: { endDate: 'date The new end' }, sets: { status: 'active' } },
    ),
    verb('post {id}/terminate', 'Terminate contract', 'Ends the contract early from a date, with the reason.', {
      body: { effectiveOn: 'date From when', reason: 'text Why' },
      sets: { status: 'terminated' },
    }),
    verb(
      'get expiring',
      'List expiring contracts',
      'Returns the contracts that end in the coming days, soonest first, so they can be renewed or cancelled in time.',
      {
        query: { withinDays: 'int(1..365)? How many days ahead (default 90)' },
        sets: { status: 'active' },
      },
    ),
    verb(
      'post {id}/amendments',
      'Add contract amendment',
      'Records a change to the contract (price, scope, term) signed by both sides.',
      {
        body: { summary: 'text What changes', effectiveOn: 'date From when', documentUrl: 'url? The signed amendment' },
        output: { amendmentId: 'id The amendment', contractId: 'id The contract', effectiveOn: 'date From when' },
        additive: true,
      },
    ),
  ],
};
