// Catalogue domains of money: invoices, payments, subscriptions, refunds, expenses and credit notes.
import { verb, type Domain } from '../spec';

export const Invoice: Domain = {
  key: 'Invoice',
  about: 'bills sent to customers for goods or services, with line items, tax, a due date and what is still owed',
  statuses: ['draft', 'sent', 'paid', 'overdue', 'void'],
  fields: {
    customerId: 'id The customer billed (an account)',
    issueDate: 'date Date of the invoice, e.g. 2026-03-01',
    dueDate: 'date When payment is due, e.g. 2026-03-31',
    currency: 'currency Currency of the amounts',
    purchaseOrderNumber: 'string? The customer’s purchase order number, e.g. PO-88121',
    notes: 'text? Text printed at the bottom of the invoice',
  },
  computed: {
    number: 'string Invoice number, e.g. INV-2026-0042',
    total: 'money Total including tax',
    amountDue: 'money What is still owed',
  },
  filters: {
    customerId: 'id? Only the invoices of this customer',
    dueBefore: 'date? Only the invoices due before this day',
    dueAfter: 'date? Only the invoices due after this day',
  },
  toolsets: ['billing'],
  verbs: [
    verb(
      'post {id}/send',
      'Send invoice',
      'Emails the invoice as a PDF to the customer’s billing contact (or the address given) and marks it sent.',
      {
        body: {
          to: 'email? Send it to this address instead of the billing contact',
          message: 'text? A note shown above the invoice',
        },
        sets: { status: 'sent' },
      },
    ),
    verb(
      'post {id}/mark-paid',
      'Mark invoice paid',
      'Records that the invoice was paid in full outside the payment system (bank transfer, cash, check).',
      {
        body: {
          paidOn: 'date? When it was paid (default today)',
          method: 'enum(card|bank_transfer|cash|check)? How it was paid',
          reference: 'string? Bank reference, e.g. TRX-55120',
        },
        sets: { status: 'paid', amountDue: 0 },
      },
    ),
    verb(
      'post {id}/void',
      'Void invoice',
      'Cancels an invoice that should not have been issued; it stays on record with its number, owing nothing.',
      {
        body: { reason: 'string Why it is voided' },
        sets: { status: 'void', amountDue: 0 },
      },
    ),
    verb(
      'get overdue',
      'List overdue invoices',
      'Returns the invoices past their due date and not paid in full, the most overdue first.',
      {
        query: {
          olderThanDays: 'int? Only those overdue for more than this many days',
          customerId: 'id? Only this customer’s',
        },
        sets: { status: 'overdue' },
      },
    ),
    verb(
      'post {id}/lines',
      'Add line item to invoice',
      'Adds a line (description, quantity, unit price, tax rate) to a draft invoice; its total is recomputed.',
      {
        body: {
          description: 'string What is billed, e.g. Consulting, March',
          quantity: 'number How many, e.g. 12',
          unitPrice: 'money Price of one',
          taxPercent: 'percent? Tax rate in percent (default: the customer’s)',
        },
        output: {
          lineId: 'id Id of the line',
          invoiceId: 'id The invoice',
          description: 'string What is billed',
          quantity: 'number How many',
          unitPrice: 'money Price of one',
          amount: 'money Quantity times unit price, before tax',
        },
        additive: true,
      },
    ),
    verb(
      'del {id}/lines/{lineId}',
      'Remove line item from invoice',
      'Removes a line from a draft invoice; its total is recomputed.',
      {
        params: { lineId: 'id The line to remove' },
      },
    ),
    verb(
      'post {id}/remind',
      'Send payment reminder',
      'Emails the customer a polite reminder that the invoice is due or overdue, with a link to pay it online.',
      {
        body: { tone: 'enum(friendly|firm|final)? How firm the reminder is (default friendly)' },
        output: {
          invoiceId: 'id The invoice',
          sentTo: 'email Who was reminded',
          sentAt: 'datetime When',
          remindersSent: 'int How many reminders this invoice has had',
        },
      },
    ),
    verb(
      'get {id}/pdf',
      'Download invoice PDF',
      'Returns a link to the invoice as a PDF, as the customer receives it.',
      {
        output: {
          invoiceId: 'id The invoice',
          url: 'url Link to the PDF, valid for one hour',
          pages: 'int Number of pages',
          sizeBytes: 'int Size of the file in bytes',
        },
        toolsets: ['documents'],
      },
    ),
    verb(
      'get export',
      'Export invoices as CSV',
      'Writes the invoices of a period to a CSV file for the accountant and returns a download link that works for one hour.',
      {
        query: {
          from: 'date First issue date',
          to: 'date Last issue date',
          status: 'status? Only the invoices in this status',
        },
        output: {
          fileName: 'string Name of the file, e.g. invoices-2026-03.csv',
          rows: 'int How many invoices it holds',
          downloadUrl: 'url Where to download it',
        },
      },
    ),
  ],
};

export const Payment: Domain = {
  key: 'Payment',
  about:
    'money received from customers by card, bank transfer or direct debit, each against a customer and usually an invoice',
  statuses: ['pending', 'succeeded', 'failed', 'refunded', 'disputed'],
  fields: {
    customerId: 'id The customer who paid (an account)',
    invoiceId: 'id? The invoice it pays',
    amount: 'money Amount paid',
    currency: 'currency Currency of the amount',
    method: 'enum(card|bank_transfer|direct_debit|paypal) How it was paid',
  },
  computed: { fee: 'money What the payment provider kept' },
  filters: {
    customerId: 'id? Only this customer’s payments',
    invoiceId: 'id? Only the payments of this invoice',
    method: 'enum(card|bank_transfer|direct_debit|paypal)? Only this method',
  },
  toolsets: ['billing'],
  skip: ['duplicate', 'share', 'import'],
  verbs: [
    verb(
      'post {id}/capture',
      'Capture payment',
      'Takes the money of a card payment that was only authorised, in full or in part.',
      {
        body: { amount: 'money? How much to take (default: all that was authorised)' },
        sets: { status: 'succeeded' },
      },
    ),
    verb(
      'post {id}/refund',
      'Refund payment',
      'Gives money back to the customer, in full or in part, on the card or account it came from.',
      {
        body: {
          amount: 'money? How much to give back (default: all)',
          reason: 'enum(duplicate|fraudulent|requested_by_customer|product_defect) Why',
        },
        output: {
          refundId: 'id The new refund',
          paymentId: 'id The payment',
          amount: 'money How much goes back',
          status: 'enum(requested|approved|processed) Where the refund is',
        },
      },
    ),
    verb(
      'post {id}/retry',
      'Retry failed payment',
      'Tries a failed card or direct debit payment again now, with the customer’s default payment method.',
      {
        sets: { status: 'pending' },
      },
    ),
    verb(
      'get failed',
      'List failed payments',
      'Returns the payments that failed in a period (declined cards, returned debits), newest first, for follow-up.',
      {
        query: { since: 'date? Only failures since this day' },
        sets: { status: 'failed' },
      },
    ),
    verb(
      'get {id}/receipt',
      'Get payment receipt',
      'Returns the receipt of a payment as sent to the customer: a link to its PDF and its number.',
      {
        output: {
          paymentId: 'id The payment',
          receiptNumber: 'string Receipt number, e.g. RCPT-2026-1180',
          url: 'url Link to the PDF',
        },
        toolsets: ['documents'],
      },
    ),
    verb(
      'post {id}/allocate',
      'Allocate payment to invoices',
      'Spreads one payment over several open invoices of the same customer, oldest first unless amounts are given.',
      {
        body: { invoiceIds: 'id[] The invoices to pay, in order' },
        output: {
          paymentId: 'id The payment',
          invoiceIds: 'id[] The invoices paid',
          unallocated: 'money What is left, kept as credit',
        },
      },
    ),
    verb(
      'post {id}/dispute',
      'Respond to payment dispute',
      'Answers a chargeback with evidence (receipt, delivery proof, correspondence) before the bank decides.',
      {
        body: { evidence: 'text What shows the charge was right', attachmentUrls: 'url[]? Links to proof documents' },
        sets: { status: 'disputed' },
      },
    ),
  ],
};

export const Subscription: Domain = {
  key: 'Subscription',
  about:
    'recurring plans customers pay for monthly or yearly, with their quantity, next billing date and monthly revenue',
  statuses: ['trialing', 'active', 'past_due', 'paused', 'cancelled'],
  fields: {
    customerId: 'id The customer (an account)',
    planId: 'id The plan subscribed to',
    quantity: 'int? Number of seats (default 1)',
    billingCycle: 'enum(monthly|yearly) How often it is billed',
  },
  computed: { nextBillingDate: 'date When it is billed next', monthlyRevenue: 'money What it brings in a month' },
  filters: { customerId: 'id? Only this customer’s subscriptions', planId: 'id? Only this plan' },
  toolsets: ['billing'],
  skip: ['duplicate'],
  verbs: [
    verb(
      'post {id}/cancel',
      'Cancel subscription',
      'Cancels the subscription now or at the end of the period already paid for.',
      {
        body: {
          atPeriodEnd: 'bool? Let it run to the end of the paid period (default true)',
          reason: 'string? Why the customer leaves',
        },
        sets: { status: 'cancelled' },
      },
    ),
    verb(
      'post {id}/pause',
      'Pause subscription',
      'Stops billing for a while; the customer keeps their data and can resume.',
      {
        body: { resumeOn: 'date? When billing starts again by itself' },
        sets: { status: 'paused' },
      },
    ),
    verb('post {id}/resume', 'Resume subscription', 'Starts billing a paused subscription again from today.', {
      sets: { status: 'active' },
    }),
    verb(
      'put {id}/plan',
      'Change subscription plan',
      'Moves the subscription to another plan (upgrade or downgrade), prorating what was already paid unless told not to.',
      {
        body: { planId: 'id The new plan', prorate: 'bool? Credit or charge the difference now (default true)' },
      },
    ),
    verb(
      'get renewals',
      'List upcoming renewals',
      'Returns the subscriptions that renew in the coming days, soonest first, with what each will be billed.',
      {
        query: { withinDays: 'int(1..365)? How many days ahead (default 30)' },
        sets: { status: 'active' },
      },
    ),
    verb('post {id}/extend-trial', 'Extend free trial', 'Gives a customer in trial more days before the first bill.', {
      body: { days: 'int(1..90) How many more days' },
      sets: { status: 'trialing' },
    }),
    verb(
      'get {id}/upcoming-invoice',
      'Preview next invoice',
      'Shows what the next invoice of the subscription will be, with prorations and discounts, without issuing it.',
      {
        output: {
          subscriptionId: 'id The subscription',
          date: 'date When it will be issued',
          total: 'money Its total',
          currency: 'currency Currency of the total',
        },
      },
    ),
  ],
};

export const Refund: Domain = {
  key: 'Refund',
  about: 'money given back to customers for a payment, asked for by support and approved by finance',
  statuses: ['requested', 'approved', 'processed', 'rejected'],
  fields: {
    paymentId: 'id The payment refunded',
    amount: 'money How much goes back',
    reason: 'enum(duplicate|fraudulent|requested_by_customer|product_defect) Why',
    note: 'text? What the customer or agent said',
  },
  filters: { paymentId: 'id? Only the refunds of this payment' },
  toolsets: ['billing'],
  skip: ['duplicate', 'share', 'import'],
  verbs: [
    verb(
      'post {id}/approve',
      'Approve refund',
      'Approves a requested refund; it is paid out with the next payment run.',
      { sets: { status: 'approved' } },
    ),
    verb('post {id}/reject', 'Reject refund', 'Turns a refund request down, with the reason sent to the customer.', {
      body: { explanation: 'text Why it is rejected, as the customer will read it' },
      sets: { status: 'rejected' },
    }),
    verb(
      'post {id}/process',
      'Process refund now',
      'Pays an approved refund out at once instead of waiting for the next payment run.',
      { sets: { status: 'processed' } },
    ),
    verb(
      'get pending',
      'List refunds awaiting approval',
      'Returns the refund requests nobody approved or rejected yet, oldest first.',
      { sets: { status: 'requested' } },
    ),
    verb(
      'get totals',
      'Get refund totals',
      'Sums the refunds of a period by reason, to spot product or fraud problems.',
      {
        query: { from: 'date First day', to: 'date Last day' },
        output: {
          total: 'money All refunds of the period',
          count: 'int How many',
          byReason: [
            'The totals by reason',
            { reason: 'string The reason', amount: 'money Total', count: 'int How many' },
          ],
        },
        toolsets: ['reporting'],
      },
    ),
  ],
};

export const Expense: Domain = {
  key: 'Expense',
  about:
    'money employees spent for the company (travel, meals, software) and claim back, with a receipt and an approver',
  statuses: ['draft', 'submitted', 'approved', 'rejected', 'reimbursed'],
  fields: {
    employeeId: 'id The employee who spent it',
    amount: 'money Amount spent',
    currency: 'currency Currency of the amount',
    category: 'enum(travel|meals|lodging|software|equipment|other) What it was for',
    spentOn: 'date When, e.g. 2026-02-12',
    merchant: 'string Where, e.g. Deutsche Bahn',
    description: 'text? What it was for, in a sentence',
    approverId: 'id? The manager who approves it',
  },
  filters: {
    employeeId: 'id? Only this employee’s expenses',
    category: 'enum(travel|meals|lodging|software|equipment|other)? Only this category',
  },
  assignee: 'approverId',
  toolsets: ['finance'],
  skip: ['share'],
  verbs: [
    verb(
      'post {id}/submit',
      'Submit expense for approval',
      'Sends a draft expense to the approver; it can no longer be edited.',
      { sets: { status: 'submitted' } },
    ),
    verb(
      'post {id}/approve',
      'Approve expense',
      'Approves a submitted expense; it is reimbursed with the next payroll.',
      { sets: { status: 'approved' } },
    ),
    verb(
      'post {id}/reject',
      'Reject expense',
      'Sends an expense back to the employee with the reason, e.g. a missing receipt.',
      {
        body: { reason: 'string Why' },
        sets: { status: 'rejected' },
      },
    ),
    verb(
      'post {id}/reimburse',
      'Reimburse expense',
      'Records that the employee was paid back for an approved expense.',
      { sets: { status: 'reimbursed' }, toolsets: ['hr'] },
    ),
    verb(
      'post {id}/receipt',
      'Upload expense receipt',
      'Attaches the photo or PDF of the receipt; its amount and date are read from it when missing.',
      {
        body: { url: 'url Where the receipt image or PDF is' },
        output: {
          expenseId: 'id The expense',
          receiptUrl: 'url The stored receipt',
          amountRead: 'money? The amount read from the receipt',
        },
      },
    ),
    verb(
      'get awaiting-approval',
      'List expenses awaiting approval',
      'Returns the submitted expenses an approver has not decided on, oldest first.',
      {
        query: { approverId: 'id? Only those this manager approves' },
        sets: { status: 'submitted' },
      },
    ),
  ],
};

export const CreditNote: Domain = {
  key: 'CreditNote',
  about: 'documents that reduce what a customer owes on an invoice (returns, discounts, billing mistakes)',
  statuses: ['draft', 'issued', 'applied', 'void'],
  fields: {
    invoiceId: 'id The invoice it corrects',
    amount: 'money How much it takes off',
    reason: 'string Why, as printed on it, e.g. Two seats billed twice',
  },
  computed: { number: 'string Credit note number, e.g. CN-2026-0007' },
  filters: { invoiceId: 'id? Only the credit notes of this invoice' },
  toolsets: ['billing'],
  skip: ['duplicate'],
  verbs: [
    verb('post {id}/issue', 'Issue credit note', 'Gives the credit note its number and sends it to the customer.', {
      sets: { status: 'issued' },
    }),
    verb(
      'post {id}/apply',
      'Apply credit note to invoice',
      'Takes the credit off an open invoice of the same customer.',
      {
        body: { invoiceId: 'id The invoice to take it off' },
        sets: { status: 'applied' },
      },
    ),
    verb('post {id}/void', 'Void credit note', 'Cancels a credit note issued by mistake.', {
      sets: { status: 'void' },
    }),
    verb('get {id}/pdf', 'Download credit note PDF', 'Returns a link to the credit note as a PDF.', {
      output: { creditNoteId: 'id The credit note', url: 'url Link to the PDF, valid for one hour' },
      toolsets: ['documents'],
    }),
    verb(
      'post {id}/refund',
      'Refund credit note',
      'Pays the credit out to the customer instead of keeping it against future invoices.',
      {
        body: { method: 'enum(card|bank_transfer) How to pay it out' },
        output: {
          creditNoteId: 'id The credit note',
          refundId: 'id The refund made',
          amount: 'money What is paid out',
        },
      },
    ),
  ],
};
