// Catalogue domains of people: employees, time off, timesheets, and hiring (job postings, candidates, interviews).
import { verb, type Domain } from '../spec';

export const Employee: Domain = {
  key: 'Employee',
  about: 'the people employed by the company, with their job title, team, manager and start date',
  statuses: ['onboarding', 'active', 'on_leave', 'terminated'],
  fields: {
    firstName: 'string First name, e.g. Katherine',
    lastName: 'string Last name, e.g. Johnson',
    email: 'email Work email, e.g. katherine.johnson@example.com',
    jobTitle: 'string Job title, e.g. Senior Data Analyst',
    teamId: 'id? The team they are in',
    managerId: 'id? The employee they report to',
    startDate: 'date First day at work',
    location: 'string? Office or remote, e.g. Berlin',
  },
  filters: {
    teamId: 'id? Only this team’s employees',
    managerId: 'id? Only the direct reports of this manager',
    location: 'string? Only this office',
  },
  toolsets: ['hr'],
  skip: ['duplicate', 'bulkStatus', 'share'],
  verbs: [
    verb(
      'get {id}/reports',
      'List direct reports',
      'Returns the employees who report to this one (their part of the org chart).',
      { output: 'list' },
    ),
    verb('put {id}/manager', 'Change employee manager', 'Makes the employee report to someone else from a given day.', {
      body: { managerId: 'id The new manager', effectiveOn: 'date? From when (default today)' },
    }),
    verb(
      'post {id}/promotions',
      'Promote employee',
      'Records a promotion: new job title and, if given, new salary, from a given day.',
      {
        body: {
          jobTitle: 'string The new title',
          salary: 'money? The new yearly salary',
          effectiveOn: 'date From when',
        },
      },
    ),
    verb(
      'post {id}/termination',
      'Terminate employee',
      'Ends the employment on a last day; access is removed that evening and offboarding tasks are created.',
      {
        body: {
          lastDay: 'date Last day at work',
          reason: 'enum(resignation|dismissal|end_of_contract|retirement) Why',
        },
        sets: { status: 'terminated' },
      },
    ),
    verb(
      'get {id}/leave-balance',
      'Get leave balance',
      'Returns the days of vacation and other leave the employee has left this year.',
      {
        output: {
          employeeId: 'id The employee',
          vacationDays: 'number Vacation days left',
          sickDaysTaken: 'number Sick days taken this year',
          carriedOver: 'number Days carried over from last year',
        },
      },
    ),
    verb(
      'get anniversaries',
      'List work anniversaries',
      'Returns the employees whose work anniversary or birthday falls in a month, to celebrate them.',
      {
        query: { month: 'int(1..12) The month, 1 to 12' },
        output: 'list',
      },
    ),
    verb(
      'get by-email/{email}',
      'Find employee by email',
      'Returns the employee with a work email address. Fails with 404 when none has it.',
      {
        params: { email: 'email The work email' },
        output: 'record',
      },
    ),
  ],
};

export const TimeOffRequest: Domain = {
  key: 'TimeOffRequest',
  about: 'vacation, sick leave and other absences employees ask for and managers approve',
  statuses: ['pending', 'approved', 'rejected', 'cancelled'],
  fields: {
    employeeId: 'id Who is away',
    type: 'enum(vacation|sick|parental|unpaid|other) Kind of leave',
    startDate: 'date First day away',
    endDate: 'date Last day away',
    note: 'string? A note for the manager',
    approverId: 'id? The manager who decides',
  },
  filters: { employeeId: 'id? Only this employee’s requests', approverId: 'id? Only those this manager decides' },
  assignee: 'approverId',
  toolsets: ['hr'],
  skip: ['duplicate', 'share'],
  verbs: [
    verb(
      'post {id}/approve',
      'Approve time off',
      'Approves the request; the days come off the leave balance and the team calendar shows the absence.',
      { sets: { status: 'approved' } },
    ),
    verb('post {id}/reject', 'Reject time off', 'Turns the request down with a reason for the employee.', {
      body: { reason: 'string Why' },
      sets: { status: 'rejected' },
    }),
    verb(
      'post {id}/cancel',
      'Cancel time off',
      'Withdraws a request, or cancels approved leave that has not started; the days go back to the balance.',
      { sets: { status: 'cancelled' } },
    ),
    verb(
      'get out-of-office',
      'List who is out',
      'Returns who is away on a day (default today), with their kind of leave and when they are back.',
      {
        query: { day: 'date? The day (default today)', teamId: 'id? Only this team' },
        sets: { status: 'approved' },
      },
    ),
    verb(
      'get calendar',
      'Get team time off calendar',
      'Returns a team’s approved and pending absences of a month, day by day.',
      {
        query: { teamId: 'id The team', month: 'string The month, e.g. 2026-08' },
        output: {
          teamId: 'id The team',
          days: ['One entry per day with absences', { date: 'date The day', employeeIds: 'id[] Who is away' }],
        },
        toolsets: ['calendar'],
      },
    ),
  ],
};

export const Timesheet: Domain = {
  key: 'Timesheet',
  about: 'the weekly record of hours each employee worked, submitted for approval and payroll',
  statuses: ['open', 'submitted', 'approved', 'rejected'],
  fields: { employeeId: 'id Whose week it is', weekStarting: 'date The Monday of the week, e.g. 2026-03-02' },
  computed: { totalHours: 'number Hours logged in the week' },
  filters: { employeeId: 'id? Only this employee’s', weekStarting: 'date? Only this week' },
  toolsets: ['hr'],
  skip: ['duplicate', 'share', 'import'],
  verbs: [
    verb(
      'post {id}/entries',
      'Log hours',
      'Adds hours worked on a day to the timesheet, optionally against a project.',
      {
        body: {
          date: 'date The day',
          hours: 'number Hours worked, e.g. 7.5',
          projectId: 'id? The project',
          note: 'string? What was done',
        },
        output: {
          timesheetId: 'id The timesheet',
          date: 'date The day',
          hours: 'number Hours worked',
          totalHours: 'number Hours in the week now',
        },
        additive: true,
      },
    ),
    verb('post {id}/submit', 'Submit timesheet', 'Sends the week to the manager for approval.', {
      sets: { status: 'submitted' },
    }),
    verb('post {id}/approve', 'Approve timesheet', 'Approves the week; its hours go to payroll.', {
      sets: { status: 'approved' },
    }),
    verb('post {id}/reject', 'Reject timesheet', 'Sends the week back to the employee with what to fix.', {
      body: { reason: 'string What to fix' },
      sets: { status: 'rejected' },
    }),
    verb(
      'get missing',
      'List missing timesheets',
      'Returns the employees who have not submitted their timesheet for a week.',
      {
        query: { weekStarting: 'date The Monday of the week' },
        output: { weekStarting: 'date The week', employeeIds: 'id[] Who has not submitted' },
      },
    ),
    verb(
      'post {id}/copy-previous',
      'Copy last week’s hours',
      'Fills the timesheet with the entries of the week before, to adjust.',
      { additive: true },
    ),
  ],
};

export const JobPosting: Domain = {
  key: 'JobPosting',
  about: 'open positions the company is hiring for, published on its careers page and job boards',
  statuses: ['draft', 'open', 'paused', 'closed', 'filled'],
  fields: {
    title: 'string Job title, e.g. Senior Backend Engineer',
    teamId: 'id? The hiring team',
    location: 'string Where, e.g. Remote (EU)',
    employmentType: 'enum(full_time|part_time|contract|internship) Kind of contract',
    salaryMin: 'money? Lowest yearly salary offered',
    salaryMax: 'money? Highest yearly salary offered',
    description: 'text The job ad, in Markdown',
    hiringManagerId: 'id? The manager who hires',
  },
  filters: { teamId: 'id? Only this team’s postings' },
  assignee: 'hiringManagerId',
  toolsets: ['recruiting', 'hr'],
  verbs: [
    verb('post {id}/publish', 'Publish job posting', 'Puts the job on the careers page and, if asked, on job boards.', {
      body: { boards: 'string[]? Job boards to post to, e.g. linkedin' },
      sets: { status: 'open' },
    }),
    verb('post {id}/close', 'Close job posting', 'Stops taking applications; candidates in process stay.', {
      sets: { status: 'closed' },
    }),
    verb(
      'post {id}/pause',
      'Pause job posting',
      'Hides the job for a while, e.g. while interviewing a strong shortlist.',
      { sets: { status: 'paused' } },
    ),
    verb(
      'get {id}/pipeline',
      'Get hiring pipeline',
      'Returns how many candidates of the job are at each stage: applied, screening, interview, offer, hired.',
      {
        output: {
          jobPostingId: 'id The job',
          stages: ['The stages, in order', { stage: 'string The stage', candidates: 'int How many' }],
        },
      },
    ),
    verb('get {id}/applicants', 'List job applicants', 'Returns the candidates who applied to the job, newest first.', {
      output: {
        items: ['The candidates', { candidateId: 'id The candidate', name: 'string Name', appliedAt: 'datetime When' }],
      },
    }),
  ],
};

export const Candidate: Domain = {
  key: 'Candidate',
  about: 'people who applied for a job, moving through screening, interviews and offer',
  statuses: ['applied', 'screening', 'interview', 'offer', 'hired', 'rejected', 'withdrawn'],
  fields: {
    name: 'string Full name, e.g. Dorothy Vaughan',
    email: 'email Email address',
    phone: 'phone? Phone number',
    jobPostingId: 'id The job applied for',
    resumeUrl: 'url? Link to the CV',
    source: 'enum(careers_page|referral|linkedin|agency|other) Where they came from',
  },
  filters: { jobPostingId: 'id? Only this job’s candidates' },
  toolsets: ['recruiting'],
  skip: ['duplicate'],
  verbs: [
    verb('put {id}/stage', 'Move candidate to stage', 'Moves the candidate to another stage of the hiring pipeline.', {
      body: { status: 'status The stage' },
    }),
    verb(
      'post {id}/reject',
      'Reject candidate',
      'Ends the candidate’s application, with the reason and, if asked, a kind email.',
      {
        body: {
          reason: 'enum(skills|experience|salary|culture|position_filled) Why',
          sendEmail: 'bool? Email the candidate (default true)',
        },
        sets: { status: 'rejected' },
      },
    ),
    verb(
      'post {id}/interviews',
      'Schedule interview',
      'Books an interview with the candidate and interviewers, and sends the calendar invites.',
      {
        body: {
          startsAt: 'datetime When',
          interviewerIds: 'id[] Who interviews',
          kind: 'enum(phone_screen|technical|onsite|culture) Kind of interview',
        },
        output: { interviewId: 'id The interview', candidateId: 'id The candidate', startsAt: 'datetime When' },
        toolsets: ['calendar'],
      },
    ),
    verb(
      'post {id}/offer',
      'Make job offer',
      'Sends the candidate an offer letter to sign, with salary and start date.',
      {
        body: { salary: 'money Yearly salary', startDate: 'date First day' },
        sets: { status: 'offer' },
      },
    ),
    verb(
      'post {id}/hire',
      'Hire candidate',
      'Marks the offer accepted and creates the employee record for onboarding.',
      {
        output: { candidateId: 'id The candidate', employeeId: 'id The new employee' },
        toolsets: ['hr'],
      },
    ),
    verb(
      'post parse-resume',
      'Parse resume',
      'Reads a CV (PDF or Word) and returns the candidate’s name, contact, experience and skills.',
      {
        body: { url: 'url Where the CV is' },
        output: {
          name: 'string Name found',
          email: 'email? Email found',
          skills: 'string[] Skills found',
          yearsOfExperience: 'int Years of experience',
        },
      },
    ),
  ],
};

export const Interview: Domain = {
  key: 'Interview',
  about: 'interviews with candidates, who is on the panel, when, and the feedback they give',
  statuses: ['scheduled', 'completed', 'cancelled', 'no_show'],
  fields: {
    candidateId: 'id The candidate',
    interviewerIds: 'id[] The panel',
    startsAt: 'datetime When it starts',
    durationMinutes: 'int How long, e.g. 45',
    kind: 'enum(phone_screen|technical|onsite|culture) Kind of interview',
  },
  filters: { candidateId: 'id? Only this candidate’s interviews' },
  toolsets: ['recruiting', 'calendar'],
  skip: ['duplicate', 'share'],
  verbs: [
    verb(
      'post {id}/reschedule',
      'Reschedule interview',
      'Moves the interview to another time and updates everyone’s invites.',
      { body: { startsAt: 'datetime The new time' } },
    ),
    verb('post {id}/cancel', 'Cancel interview', 'Cancels the interview and tells the candidate and the panel.', {
      body: { reason: 'string? Why' },
      sets: { status: 'cancelled' },
    }),
    verb(
      'post {id}/feedback',
      'Submit interview feedback',
      'Records an interviewer’s rating and recommendation after the interview.',
      {
        body: {
          interviewerId: 'id Who gives it',
          rating: 'int(1..5) From 1 to 5',
          recommendation: 'enum(strong_yes|yes|no|strong_no) Hire or not',
          notes: 'text What they saw',
        },
        output: {
          interviewId: 'id The interview',
          interviewerId: 'id Who gave it',
          recommendation: 'enum(strong_yes|yes|no|strong_no) Hire or not',
        },
        additive: true,
      },
    ),
    verb('post {id}/no-show', 'Mark candidate no-show', 'Records that the candidate did not come.', {
      sets: { status: 'no_show' },
    }),
    verb(
      'post {id}/invites',
      'Resend interview invites',
      'Sends the calendar invites again to the candidate and the panel.',
      {
        output: { interviewId: 'id The interview', sentTo: 'email[] Who got the invite' },
      },
    ),
  ],
};
