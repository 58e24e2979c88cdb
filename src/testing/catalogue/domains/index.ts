// The catalogue's domains in their fixed order: rounds of ten, one from each area, so that every prefix mixes the areas.
import type { Domain } from '../spec';
import * as billing from './billing';
import * as commerce from './commerce';
import * as crm from './crm';
import * as logistics from './logistics';
import * as marketing from './marketing';
import * as operations from './operations';
import * as people from './people';
import * as projects from './projects';
import * as support from './support';
import * as workplace from './workplace';

export const DOMAINS: readonly Domain[] = [
  // 1–200
  crm.Contact,
  billing.Invoice,
  logistics.Shipment,
  support.Ticket,
  projects.ProjectTask,
  people.Employee,
  commerce.Product,
  workplace.Document,
  marketing.Campaign,
  operations.Report,
  // 201–400
  crm.Account,
  billing.Payment,
  logistics.Warehouse,
  support.KnowledgeArticle,
  projects.Project,
  people.TimeOffRequest,
  commerce.Order,
  workplace.CalendarEvent,
  marketing.MediaAsset,
  operations.Team,
  // 401–600
  crm.Lead,
  billing.Subscription,
  logistics.Carrier,
  support.SavedReply,
  projects.Sprint,
  people.Timesheet,
  commerce.StockItem,
  workplace.MeetingRoom,
  marketing.BlogPost,
  operations.Role,
  // 601–800
  crm.Deal,
  billing.Refund,
  logistics.Return,
  support.ServiceLevelPolicy,
  projects.Issue,
  people.JobPosting,
  commerce.Quote,
  workplace.Folder,
  marketing.PodcastEpisode,
  operations.Dashboard,
  // 801–1000
  crm.Activity,
  billing.Expense,
  logistics.PurchaseOrder,
  support.Survey,
  projects.Milestone,
  people.Candidate,
  commerce.Coupon,
  workplace.Reminder,
  marketing.MailingList,
  operations.Metric,
  // 1001–1200
  crm.FeatureRequest,
  billing.CreditNote,
  logistics.Supplier,
  support.ChatConversation,
  projects.TimeEntry,
  people.Interview,
  commerce.Asset,
  workplace.Contract,
  marketing.Newsletter,
  operations.Incident,
];
